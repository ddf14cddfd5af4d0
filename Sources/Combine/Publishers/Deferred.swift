/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// Each subscriber gets a publisher of its own, made when it subscribes:
///
/// ```swift
/// let lazy = Deferred { Future<Int, Never> { promise in promise(.success(expensive())) } }
/// // `expensive()` runs once per subscription, not now.
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values published by this publisher.
    public typealias Output = DeferredPublisher.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this deferred publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    ///
    /// - Parameter createPublisher: The closure to execute when calling `subscribe(_:)`.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}
