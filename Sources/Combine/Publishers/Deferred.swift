// SPDX-License-Identifier: Apache-2.0
/// A publisher that calls a closure at each subscription and attaches the subscriber to the
/// publisher the closure returns.
///
/// Each subscriber gets a publisher of its own, made when it subscribes:
///
/// ```swift
/// let lazy = Deferred { Future<Int, Never> { promise in promise(.success(expensive())) } }
/// // `expensive()` runs once per subscription, not now.
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The type of values of the publisher the closure creates.
    public typealias Output = DeferredPublisher.Output
    /// The failure type of the publisher the closure creates.
    public typealias Failure = DeferredPublisher.Failure

    /// Makes a new publisher for each subscriber, when that subscriber attaches.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    ///
    /// - Parameter createPublisher: The closure that `subscribe(_:)` calls to make the publisher
    ///   the subscriber is attached to.
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        createPublisher().receive(subscriber: subscriber)
    }
}
