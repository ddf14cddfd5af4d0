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
///
/// Every observed event reads the list (twice: before and after it reaches the subscriber), from
/// whichever thread it happens on, so the list is read through one of several stripes, each a
/// lock and its own reference to the list, picked by the reading thread: threads of different
/// pipelines rarely take the same lock. A change, which is rare, writes a fresh array into every
/// stripe; no array is ever changed in place once a reader may hold it (the reader's copy keeps
/// the buffer alive, but its reference count lives in the runtime, where ThreadSanitizer does
/// not look, so a change in place after a reader let go would be reported as a race with it).
final class IntrospectionRegistry: @unchecked Sendable {
    static let shared = IntrospectionRegistry()

    private static let stripeCount = 16

    /// Serialises changes; guards `enabled`, the list every stripe is given a copy of.
    private let lock = Lock()
    @exclusivity(unchecked)
    private var enabled: [any _Introspection] = []
    /// Stripe `i`'s list, guarded by lock `i` of `stripes`; each an array of its own, so that
    /// readers of different stripes never count references on one buffer.
    private let lists: UnsafeMutablePointer<[any _Introspection]>
    private let stripes = LockStripes(count: IntrospectionRegistry.stripeCount)

    private init() {
        lists = .allocate(capacity: Self.stripeCount)
        lists.initialize(repeating: [], count: Self.stripeCount)
    }

    func enable(_ introspection: any _Introspection) {
        lock.withLock {
            guard !enabled.contains(where: { $0 === introspection }) else { return }
            publish(enabled + [introspection])
        }
    }

    func disable(_ introspection: any _Introspection) {
        // The removed reference is released after the lock is given up: its deinit may call in.
        let removed: [any _Introspection] = lock.withLock {
            guard enabled.contains(where: { $0 === introspection }) else { return [] }
            let previous = enabled
            publish(enabled.filter { $0 !== introspection })
            return previous
        }
        withExtendedLifetime(removed) {}
    }

    /// Under `lock`: makes `list` (a fresh array) the enabled list, in every stripe.
    private func publish(_ list: [any _Introspection]) {
        enabled = list
        for index in 0..<Self.stripeCount {
            var list = list.map { $0 }  // a buffer of the stripe's own
            // The list it replaces is released after the lock.
            stripes.withLock(index) { swap(&lists[index], &list) }
            withExtendedLifetime(list) {}
        }
        enabledIntrospectionCount.store(list.count, ordering: .releasing)
    }

    func isEnabled(_ introspection: any _Introspection) -> Bool {
        lock.withLock { enabled.contains(where: { $0 === introspection }) }
    }

    /// The introspections enabled now; each event goes to those enabled when it happens.
    var current: [any _Introspection] {
        guard enabledIntrospectionCount.load(ordering: .acquiring) > 0 else { return [] }
        let index = currentThreadStripe(of: Self.stripeCount)
        return stripes.withLock(index) { lists[index] }
    }

    /// Calls `body` with each introspection enabled now, outside every lock.
    @inline(__always)
    func forEachEnabled(_ body: (any _Introspection) -> Void) {
        let list = current
        withExtendedLifetime(list) {
            list.withUnsafeBufferPointer { introspections in
                for index in introspections.indices { body(introspections[index]) }
            }
        }
    }
}

/// Tells whether a subscriber is (or type-erases) the stand-in that introspection puts in front
/// of a subscriber, so that handing it on (an operator or `AnyPublisher` passing its subscriber
/// upstream) does not wrap it twice.
@usableFromInline
protocol IntrospectedSubscriber {
    var isIntrospected: Bool { get }
}

/// The reports of the introspected paths, kept out of line: the paths themselves are inlined
/// and specialised into the client (a subscriber observed once stays observed, so an
/// unspecialised path would run the whole pipeline unspecialised, also after the
/// introspection is disabled), while what only runs when an introspection is enabled stays
/// here, out of every caller's frame.
@usableFromInline
enum IntrospectionReport {
    @usableFromInline
    static func isIntrospected(_ subscriber: some Subscriber) -> Bool {
        (subscriber as? any IntrospectedSubscriber)?.isIntrospected == true
    }

    @usableFromInline
    @inline(never)
    static func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willReceive(publisher: publisher, subscriber: subscriber)
        }
    }

    @usableFromInline
    @inline(never)
    static func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didReceive(publisher: publisher, subscriber: subscriber)
        }
    }

    @usableFromInline
    @inline(never)
    static func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willReceive(subscriber: subscriber, subscription: subscription)
        }
    }

    @usableFromInline
    @inline(never)
    static func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didReceive(subscriber: subscriber, subscription: subscription)
        }
    }

    @usableFromInline
    @inline(never)
    static func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willReceive(subscriber: subscriber, input: input)
        }
    }

    @usableFromInline
    @inline(never)
    static func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didReceive(subscriber: subscriber, input: input, resultingDemand: resultingDemand)
        }
    }

    @usableFromInline
    @inline(never)
    static func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willReceive(subscriber: subscriber, completion: completion)
        }
    }

    @usableFromInline
    @inline(never)
    static func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didReceive(subscriber: subscriber, completion: completion)
        }
    }
}

extension Publisher {
    /// `subscribe(_:)` while an introspection is enabled: reports the attachment and puts a
    /// reporting subscriber in front of `subscriber`.
    @inlinable
    func subscribeIntrospected<Downstream: Subscriber>(_ subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        if IntrospectionReport.isIntrospected(subscriber) {
            // Already observed further down: reported as a type-erased subscriber.
            let reported = AnySubscriber(subscriber)
            IntrospectionReport.willReceive(publisher: self, subscriber: reported)
            receive(subscriber: subscriber)
            IntrospectionReport.didReceive(publisher: self, subscriber: reported)
            return
        }
        IntrospectionReport.willReceive(publisher: self, subscriber: subscriber)
        receive(subscriber: IntrospectionSubscriber(subscriber))
        IntrospectionReport.didReceive(publisher: self, subscriber: subscriber)
    }
}

/// Whether an introspection is enabled now: what an observed subscriber or subscription reads
/// before anything else, so that once none is, an observed pipeline costs one load per event
/// more than an unobserved one.
@inlinable
@inline(__always)
var anIntrospectionIsEnabled: Bool {
    enabledIntrospectionCount.load(ordering: .relaxed) > 0
}

/// Stands in front of an observed subscriber: reports what it receives, and hands it its
/// subscription behind an ``IntrospectionSubscription``. Describes and identifies itself as
/// the subscriber it observes.
@usableFromInline
struct IntrospectionSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible, IntrospectedSubscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream

    @inlinable
    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { downstream.combineIdentifier }

    @usableFromInline
    var description: String { String(describing: downstream) }

    @inlinable
    var isIntrospected: Bool { true }

    @inlinable
    func receive(subscription: Subscription) {
        let observed =
            subscription is IntrospectionSubscription ? subscription : IntrospectionSubscription(subscription)
        guard anIntrospectionIsEnabled else { return downstream.receive(subscription: observed) }
        IntrospectionReport.willReceive(subscriber: downstream, subscription: subscription)
        downstream.receive(subscription: observed)
        IntrospectionReport.didReceive(subscriber: downstream, subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard anIntrospectionIsEnabled else { return downstream.receive(input) }
        IntrospectionReport.willReceive(subscriber: downstream, input: input)
        let demand = downstream.receive(input)
        IntrospectionReport.didReceive(subscriber: downstream, input: input, resultingDemand: demand)
        return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        guard anIntrospectionIsEnabled else { return downstream.receive(completion: completion) }
        IntrospectionReport.willReceive(subscriber: downstream, completion: completion)
        downstream.receive(completion: completion)
        IntrospectionReport.didReceive(subscriber: downstream, completion: completion)
    }
}

/// Stands in front of the subscription an observed subscriber receives: reports its requests
/// and cancellations. Describes and identifies itself as that subscription.
@usableFromInline
final class IntrospectionSubscription: Subscription, CustomStringConvertible {
    let upstream: Subscription

    @usableFromInline
    init(_ upstream: Subscription) {
        self.upstream = upstream
    }

    @usableFromInline
    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }

    @usableFromInline
    var description: String { String(describing: upstream) }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard anIntrospectionIsEnabled else { return upstream.request(demand) }
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willRequest(subscription: upstream, demand)
        }
        upstream.request(demand)
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didRequest(subscription: upstream, demand)
        }
    }

    @usableFromInline
    func cancel() {
        guard anIntrospectionIsEnabled else { return upstream.cancel() }
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.willCancel(subscription: upstream)
        }
        upstream.cancel()
        IntrospectionRegistry.shared.forEachEnabled { introspection in
            introspection.didCancel(subscription: upstream)
        }
    }
}
