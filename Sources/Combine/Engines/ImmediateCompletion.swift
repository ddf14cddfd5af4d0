// SPDX-License-Identifier: Apache-2.0
extension Subscriber {
    /// Subscribes with ``Subscriptions/empty`` and completes at once: what Combine does for
    /// a publisher that has nothing to deliver (`Empty`, `Fail`, a finished subject, ...).
    @inlinable
    func receiveSubscriptionAndCompletion(_ completion: Subscribers.Completion<Failure>) {
        receive(subscription: Subscriptions.empty)
        receive(completion: completion)
    }
}
