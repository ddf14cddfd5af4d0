// SPDX-License-Identifier: Apache-2.0
import Foundation

/// What a subscriber received, from whichever thread it was called on.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
        arrived.signal()
    }

    /// Waits for one more value (at most five seconds), then returns all so far.
    func awaitNext() -> [Value] {
        _ = arrived.wait(timeout: .now() + 5)
        return lock.withLock { values }
    }

    var received: [Value] { lock.withLock { values } }
}
