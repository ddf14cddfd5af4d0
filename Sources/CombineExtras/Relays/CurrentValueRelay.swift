// SPDX-License-Identifier: Apache-2.0
import Combine

/// A relay that holds a current value, sends it to each new subscriber, and passes on every
/// value accepted after; the ``Relay`` counterpart of `CurrentValueSubject`.
///
/// ```
/// accept:       ---1--2--3--   (created with the current value 0)
/// subscriber A: 0--1--2--3--   (subscribed at the start: gets 0 at once)
/// subscriber B:        2-3--   (subscribed after 2: gets the current value first)
/// ```
///
/// It never completes while it exists (there is nothing to send a completion with); when it
/// is deallocated its subscribers receive `.finished`. Demand, thread safety and delivery
/// are those of `CurrentValueSubject`.
public final class CurrentValueRelay<Output>: Relay, @unchecked Sendable {
    /// A relay never fails.
    public typealias Failure = Never

    private let storage: RelaySubject<CurrentValueSubject<Output, Never>>

    /// The latest value accepted (or the initial one).
    public var value: Output { storage.subject.value }

    /// Creates a relay whose current value is `value`.
    public init(_ value: Output) {
        storage = RelaySubject(CurrentValueSubject(value))
    }

    /// Makes `value` the current value and sends it to the subscribers.
    public func accept(_ value: Output) { storage.accept(value) }

    /// Attaches the specified subscriber to this relay: it gets the current value first.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        storage.attach(subscriber)
    }
}
