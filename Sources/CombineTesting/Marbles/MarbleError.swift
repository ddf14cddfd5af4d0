// SPDX-License-Identifier: Apache-2.0
import Combine

/// The failure of a marble whose `#` the test does not care to type: an error that is only a
/// name.
///
/// The string-valued `hot` and `cold` publishers of ``MarbleTest`` fail with it, and the
/// `expect` of a publisher failing with `MarbleError` takes `#` to mean `MarbleError()`.
///
/// ```swift
/// let m = MarbleTest()
/// let source = m.hot("-a-#", error: MarbleError("lost connection"))
/// m.expect(source, "-a-#", error: MarbleError("lost connection"))
/// ```
public struct MarbleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name that tells this failure from others.
    public let name: String

    /// Creates a failure named `name`.
    public init(_ name: String = "error") {
        self.name = name
    }

    /// The failure as it reads in test output, e.g. `MarbleError(error)`.
    public var description: String { "MarbleError(\(name))" }
}

/// One thing a publisher delivered to a subscriber: a value or the completion.
///
/// ```swift
/// let recording = m.record(m.cold("a|"))
/// recording.ticks == [[.value("a")], [.completion(.finished)]]
/// ```
public enum MarbleEvent<Output, Failure: Error> {
    /// A value.
    case value(Output)
    /// The completion: finished or failed.
    case completion(Subscribers.Completion<Failure>)
}

extension MarbleEvent: Equatable where Output: Equatable, Failure: Equatable {}
extension MarbleEvent: Sendable where Output: Sendable {}
