// SPDX-License-Identifier: Apache-2.0
/// The link between one subscriber and the publisher it is attached to.
///
/// Subscriptions are class constrained in practice because a subscription has identity:
/// it is the one connection between one subscriber and one publisher. Cancelling a
/// subscription must be thread-safe and may be called more than once.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Raises the number of values the publisher is allowed to deliver to the subscriber by
    /// `demand`.
    func request(_ demand: Subscribers.Demand)
}

extension Subscriptions {
    /// Returns the "empty" subscription: requests and cancellation do nothing.
    ///
    /// Use it when a publisher completes (or fails) immediately and has nothing to deliver.
    public static var empty: Subscription { EmptySubscription.shared }
}

/// The subscription returned by ``Subscriptions/empty``.
final class EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable  // immutable
{
    static let shared = EmptySubscription()
    let combineIdentifier = CombineIdentifier()
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Empty" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
