// SPDX-License-Identifier: Apache-2.0
import Combine

/// A relay that passes each accepted value to its current subscribers, with no initial or
/// latest value; the ``Relay`` counterpart of `PassthroughSubject`.
///
/// ```
/// accept:     --1--2--3--
/// subscriber: -----2--3--     (subscribed after 1)
/// ```
///
/// It never completes while it exists (there is nothing to send a completion with); when it
/// is deallocated its subscribers receive `.finished`. Demand, thread safety and delivery
/// are those of `PassthroughSubject`: a subscriber without demand does not get the value.
public final class PassthroughRelay<Output>: Relay, @unchecked Sendable {
    /// A relay never fails.
    public typealias Failure = Never

    private let storage = RelaySubject(PassthroughSubject<Output, Never>())

    /// Creates a relay.
    public init() {}

    /// Sends `value` to the current subscribers.
    public func accept(_ value: Output) { storage.accept(value) }

    /// Attaches the specified subscriber to this relay: it gets the values accepted from now on.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        storage.attach(subscriber)
    }
}
