// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Synchronization

/// An observer of every subscription made while it is enabled: Apple's underscored debugging
/// hook, declared as in Apple's interface.
///
/// Call ``enable()`` to start observing and ``disable()`` to stop. While at least one
/// introspection is enabled, `subscribe(_:)` reports the publisher and the
/// subscriber, and puts a forwarding subscriber between them that reports each subscription,
/// value and completion the subscriber receives, and each request and cancellation made through
/// its subscription, to every introspection enabled at that moment. A subscriber attached while
/// none was enabled, or through ``Publisher/receive(subscriber:)`` directly, is not observed.
/// Every method has an empty default implementation.
public protocol _Introspection: AnyObject {
    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription)

    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription)

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand)

    func didRequest(subscription: Subscription, _ demand: Subscribers.Demand)

    func willCancel(subscription: Subscription)

    func didCancel(subscription: Subscription)
}

extension _Introspection {
    public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {}

    public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {}

    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {}

    public func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    public func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

    public func didRequest(subscription: Subscription, _ demand: Subscribers.Demand) {}

    public func willCancel(subscription: Subscription) {}

    public func didCancel(subscription: Subscription) {}

    /// Starts observing subscriptions made from now on (and the events of those already
    /// observed). Enabling an enabled introspection does nothing.
    public func enable() {
        IntrospectionRegistry.shared.enable(self)
    }

    /// Stops observing. Disabling a disabled introspection does nothing.
    public func disable() {
        IntrospectionRegistry.shared.disable(self)
    }

    /// Whether this introspection is enabled.
    public var isEnabled: Bool {
        IntrospectionRegistry.shared.isEnabled(self)
    }
}

/// How many introspections are enabled: the one thing `subscribe(_:)` reads
/// when none is, so observing costs nothing per value and one load per subscription.
@usableFromInline
package let enabledIntrospectionCount = Atomic<Int>(0)

/// The enabled introspections, in the order they were enabled (held strongly while enabled).
final class IntrospectionRegistry: @unchecked Sendable {
    static let shared = IntrospectionRegistry()

    private let lock = Lock()
    @exclusivity(unchecked)
    private var enabled: [any _Introspection] = []

    func enable(_ introspection: any _Introspection) {
        lock.withLock {
            guard !enabled.contains(where: { $0 === introspection }) else { return }
            enabled.append(introspection)
            enabledIntrospectionCount.store(enabled.count, ordering: .releasing)
        }
    }

    func disable(_ introspection: any _Introspection) {
        // The removed reference is released after the lock is given up: its deinit may call in.
        let removed: (any _Introspection)? = lock.withLock {
            guard let index = enabled.firstIndex(where: { $0 === introspection }) else { return nil }
            let removed = enabled.remove(at: index)
            enabledIntrospectionCount.store(enabled.count, ordering: .releasing)
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    func isEnabled(_ introspection: any _Introspection) -> Bool {
        lock.withLock { enabled.contains(where: { $0 === introspection }) }
    }

    /// The introspections enabled now; each event goes to those enabled when it happens.
    var current: [any _Introspection] {
        guard enabledIntrospectionCount.load(ordering: .acquiring) > 0 else { return [] }
        return lock.withLock { enabled }
    }
}

/// Tells whether a subscriber is (or type-erases) the stand-in that introspection puts in front
/// of a subscriber, so that handing it on (an operator or `AnyPublisher` passing its subscriber
/// upstream) does not wrap it twice.
protocol IntrospectedSubscriber {
    var isIntrospected: Bool { get }
}

extension Publisher {
    /// `subscribe(_:)` while an introspection is enabled: reports the attachment and puts a
    /// reporting subscriber in front of `subscriber`.
    @usableFromInline
    func subscribeIntrospected<Downstream: Subscriber>(_ subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        if (subscriber as? any IntrospectedSubscriber)?.isIntrospected == true {
            // Already observed further down: reported as a type-erased subscriber.
            let reported = AnySubscriber(subscriber)
            for introspection in IntrospectionRegistry.shared.current {
                introspection.willReceive(publisher: self, subscriber: reported)
            }
            receive(subscriber: subscriber)
            for introspection in IntrospectionRegistry.shared.current {
                introspection.didReceive(publisher: self, subscriber: reported)
            }
            return
        }
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(publisher: self, subscriber: subscriber)
        }
        receive(subscriber: IntrospectionSubscriber(subscriber))
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(publisher: self, subscriber: subscriber)
        }
    }
}

/// Stands in front of an observed subscriber: reports what it receives, and hands it its
/// subscription behind an ``IntrospectionSubscription``. Describes and identifies itself as
/// the subscriber it observes.
struct IntrospectionSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, IntrospectedSubscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let downstream: Downstream

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    var description: String { String(describing: downstream) }

    var isIntrospected: Bool { true }

    func receive(subscription: Subscription) {
        let observed =
            subscription is IntrospectionSubscription ? subscription : IntrospectionSubscription(subscription)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, subscription: subscription)
        }
        downstream.receive(subscription: observed)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, subscription: subscription)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, input: input)
        }
        let demand = downstream.receive(input)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, input: input, resultingDemand: demand)
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willReceive(subscriber: downstream, completion: completion)
        }
        downstream.receive(completion: completion)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didReceive(subscriber: downstream, completion: completion)
        }
    }
}

/// Stands in front of the subscription an observed subscriber receives: reports its requests
/// and cancellations. Describes and identifies itself as that subscription.
final class IntrospectionSubscription: Subscription, CustomStringConvertible {
    let upstream: Subscription

    init(_ upstream: Subscription) {
        self.upstream = upstream
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    var description: String { String(describing: upstream) }

    func request(_ demand: Subscribers.Demand) {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willRequest(subscription: upstream, demand)
        }
        upstream.request(demand)
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didRequest(subscription: upstream, demand)
        }
    }

    func cancel() {
        for introspection in IntrospectionRegistry.shared.current {
            introspection.willCancel(subscription: upstream)
        }
        upstream.cancel()
        for introspection in IntrospectionRegistry.shared.current {
            introspection.didCancel(subscription: upstream)
        }
    }
}
