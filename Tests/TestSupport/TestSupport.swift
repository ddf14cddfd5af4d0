// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization

// Helpers shared by every test target of the package, one name each. Nothing here depends on
// Combine, so the same helpers serve the tests of the core and of CombineExtras (which on
// Apple's platforms are built against the system framework).

/// An object whose lifetime a test watches through a weak reference: captured by a closure,
/// it lives exactly as long as the closure.
public final class LifetimeToken: Sendable {
    public init() {}

    /// Returns `value`; a closure that calls this captures the token.
    public func pass<Value>(_ value: Value) -> Value { value }
}

/// A value guarded by a lock, for state shared with closures that may run on other threads.
/// The lock is a pthread mutex (`NSLock`), which ThreadSanitizer sees.
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    public var current: Value { withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }
}

extension LockedValue where Value: RangeReplaceableCollection {
    /// Appends `element` under the lock.
    public func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }
}

extension LockedValue where Value == Int {
    /// Adds one under the lock.
    public func increment() {
        withLock { $0 += 1 }
    }
}

/// Holds threads until `count` of them have arrived, then lets them all go at once, so that
/// what they do next really overlaps (blocks handed to a global queue mostly run one after
/// another and hide contention).
public final class StartBarrier: Sendable {
    private let count: Int
    private let arrived = Atomic<Int>(0)

    public init(threads count: Int) {
        self.count = count
    }

    /// Counts this thread in and spins until every thread has arrived.
    public func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < count {}
    }
}

/// Runs `body(index)` for `0..<threads` on as many new threads, released together from one
/// ``StartBarrier``, and returns when all are done.
public func runOverlapping(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = StartBarrier(threads: threads)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        Thread {
            barrier.arriveAndWait()
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}

/// Waits until `condition` holds, looking again after each millisecond, for at most `timeout`;
/// returns whether it held. For results that arrive on another task or thread: the test waits
/// for the event, and the timeout is only reached when the code is wrong. The default is long
/// because the whole suite shares one cooperative pool of as many threads as cores, which the
/// blocking (synchronous) stress tests hold: on two cores a task waits 30–50 s for a thread in
/// a plain run and about 190 s under ThreadSanitizer (every `async` test of a TSan run reports
/// about 189 s). It runs on the caller's actor, so a `@MainActor` test may look at its
/// main-actor state.
public func eventually(
    timeout: Duration = .seconds(600), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return true
}

/// Gates an `async` test closure on the test's say-so: `wait(key)` suspends until the test calls
/// `open(key)`, and records that it started, and whether its task was cancelled while waiting
/// (which also ends the wait when `cancellable`).
public final class Gates: Sendable {
    private struct State {
        var opened: Set<Int> = []
        var started: [Int] = []
        var cancelled: Set<Int> = []
        var finished: [Int] = []
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = LockedValue(State())

    public init() {}

    /// The keys whose wait has begun, in order.
    public var started: [Int] { state.current.started }
    /// The keys whose task was cancelled while waiting.
    public var cancelled: Set<Int> { state.current.cancelled }
    /// The keys whose wait has ended, in order.
    public var finished: [Int] { state.current.finished }

    /// Suspends until `open(key)`; with `cancellable`, also until the task is cancelled.
    public func wait(_ key: Int, cancellable: Bool = true) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    state.started.append(key)
                    if state.opened.contains(key) || (cancellable && Task.isCancelled) {
                        continuation.resume()
                    } else {
                        state.waiting[key] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.cancelled.insert(key)
                if cancellable { state.waiting.removeValue(forKey: key)?.resume() }
            }
        }
        state.withLock { $0.finished.append(key) }
    }

    /// Lets the wait for `key` end (now, or at once when it begins).
    public func open(_ key: Int) {
        state.withLock { state in
            state.opened.insert(key)
            state.waiting.removeValue(forKey: key)?.resume()
        }
    }
}

/// The failure type of the behaviour tests: hashable and codable, so completions carrying it
/// can be compared and round-tripped.
public struct CoreTestError: Error, Hashable, Codable {
    public let code: Int

    public init(code: Int) {
        self.code = code
    }
}
