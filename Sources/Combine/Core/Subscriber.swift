/// A protocol that declares a type that can receive input from a publisher.
///
/// A subscriber receives exactly one subscription, then zero or more values (never more
/// than it requested), then at most one completion, and nothing after it.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of errors this subscriber might receive. Use `Never` if it can't fail.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may
    /// request items. Call ``Subscription/request(_:)`` to start the flow of values.
    func receive(subscription: Subscription)

    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// - Returns: How many more elements the subscriber expects, added to the demand it
    ///   already has outstanding. Return `.none` to leave the demand as it is.
    func receive(_ input: Self.Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed publishing, either normally
    /// or with an error.
    func receive(completion: Subscribers.Completion<Self.Failure>)
}

extension Subscriber where Self.Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further
    /// requests.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
