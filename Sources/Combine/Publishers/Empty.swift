// SPDX-License-Identifier: Apache-2.0
/// A publisher without values, which finishes as soon as it is subscribed to, or never.
///
/// ```swift
/// Empty<Int, Never>().sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// // prints "finished"
/// ```
///
/// With `completeImmediately: false` it never completes either: a publisher that does
/// nothing, useful in tests and as a placeholder.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether a subscriber receives `.finished` right after its subscription; when `false`,
    /// no event follows the subscription.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    ///
    /// - Parameter completeImmediately: Whether the publisher finishes as soon as it is
    ///   subscribed to.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given output and failure types, for use where
    /// they can't be inferred.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        if completeImmediately {
            subscriber.receiveSubscriptionAndCompletion(.finished)
        } else {
            subscriber.receive(subscription: Subscriptions.empty)
        }
    }

    /// Returns whether two empty publishers are equal: whether they agree on finishing at once.
    ///
    /// - Parameters:
    ///   - lhs: An empty publisher to compare.
    ///   - rhs: Another empty publisher to compare.
    /// - Returns: `true` if both have the same `completeImmediately`.
    public static func == (lhs: Empty, rhs: Empty) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
