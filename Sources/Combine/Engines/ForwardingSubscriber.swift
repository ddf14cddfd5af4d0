// SPDX-License-Identifier: Apache-2.0
/// The shape of a one-to-one operator's subscriber: a value type that wraps the downstream
/// subscriber, passes the upstream subscription and the completion straight through, and
/// transforms only the values. It adds no subscription, lock or allocation of its own.
/// Like Apple's, it reflects as its operator's name with no children.
@usableFromInline
protocol ForwardingSubscriber: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
where Failure == Downstream.Failure {
    associatedtype Downstream: Subscriber
    var downstream: Downstream { get }
}

extension ForwardingSubscriber {
    @inlinable
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @inlinable
    var playgroundDescription: Any { description }

    @inlinable
    func receive(subscription: Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
