// SPDX-License-Identifier: Apache-2.0
/// A type that consumes the events of a publisher it is attached to.
///
/// A subscriber receives exactly one subscription, then zero or more values (never more
/// than it requested), then at most one completion, and nothing after it.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The type of the error that can end the stream this subscriber consumes; `Never` if
    /// no error can arrive.
    associatedtype Failure: Error

    /// Hands the subscriber the subscription that links it to the publisher. Nothing is sent
    /// until the subscriber asks for values with ``Subscription/request(_:)``.
    func receive(subscription: Subscription)

    /// Delivers one value from the publisher.
    ///
    /// - Returns: How many more elements the subscriber expects, added to the demand it
    ///   already has outstanding. Return `.none` to leave the demand as it is.
    func receive(_ input: Self.Input) -> Subscribers.Demand

    /// Delivers the end of the stream: `.finished`, or `.failure` with the error. No event
    /// follows it.
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

extension Subscriber where Self.Input == Void {
    /// Delivers one `()` value to a subscriber whose input is `Void`, and returns the
    /// additional demand it answers with.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
