/// The one implementation behind `flatMap` and `switchToLatest`: each upstream value
/// becomes an inner publisher whose values go downstream, within the subscriber's demand.
///
/// - `flatMap(maxPublishers:)` asks upstream for `maxPublishers` values and keeps that many
///   inner publishers at once, asking for one more upstream value each time one finishes.
/// - `switchToLatest` asks upstream for everything and keeps only the newest inner
///   publisher, cancelling the previous one.
///
/// Demand, as Apple's:
/// - `flatMap` asks each new inner publisher for one value (`.unlimited` once the subscriber
///   has asked for that), and asks an inner for one more each time one of its values has been
///   delivered: by returning `.max(1)` when the value went straight to the subscriber, or by a
///   request when it had waited in the queue. So every inner holds at most one value waiting
///   for demand, and a request from the subscriber costs what it delivers, whatever the
///   number of live inners.
/// - `switchToLatest` asks its one inner for the subscriber's outstanding demand, and passes
///   later requests on to it.
///
/// It finishes when the upstream and every inner publisher have finished, and fails
/// (cancelling everything) as soon as any of them fails.
@usableFromInline
final class FlatMapSubscription<Upstream: Publisher, Inner: Publisher, Downstream: Subscriber>: FanIn<Downstream>,
    @unchecked Sendable
where
    Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline let transform: (Upstream.Output) -> Inner
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline let switching: Bool
    @usableFromInline @exclusivity(unchecked) var outer: Subscription?
    @usableFromInline @exclusivity(unchecked) var outerFinished = false
    /// The live inner publishers.
    @usableFromInline @exclusivity(unchecked) var inners = InnerTable()
    /// For `flatMap`: which inner sent each queued value (in the queue's order), to be asked
    /// for one more once the value is delivered.
    @usableFromInline @exclusivity(unchecked) var origins = RingQueue<InnerTable.ID>()
    /// For `flatMap`: the subscriber asked for `.unlimited`, and so has every inner been.
    @usableFromInline @exclusivity(unchecked) var unlimited = false

    @inlinable
    init(
        downstream: Downstream, maxPublishers: Subscribers.Demand, switching: Bool, name: String,
        transform: @escaping (Upstream.Output) -> Inner
    ) {
        self.transform = transform
        self.maxPublishers = maxPublishers
        self.switching = switching
        super.init(downstream: downstream, name: name)
    }

    /// Hands the subscription downstream, then subscribes upstream.
    @inlinable
    func subscribe(to upstream: Upstream) {
        start()
        upstream.subscribe(OuterChild(owner: self))
    }

    @usableFromInline
    override func didRequest(_ demand: Subscribers.Demand) {
        let inners: [Subscription] = lock.withLock {
            if switching { return self.inners.subscriptions }
            // flatMap: queued values are delivered by the drain that follows, each asking its
            // inner for one more; only `.unlimited` goes to every inner, once.
            guard demand == .unlimited, !unlimited else { return [] }
            unlimited = true
            origins.removeAll()
            return self.inners.subscriptions
        }
        for inner in inners {
            inner.request(demand)
        }
    }

    @usableFromInline
    override func didDeliver(_ additionalDemand: Subscribers.Demand) {
        guard !switching else {
            super.didDeliver(additionalDemand)
            return
        }
        let origin: Subscription? = lock.withLock {
            guard let id = origins.popFirst() else { return nil }
            return inners.subscription(of: id)
        }
        origin?.request(.max(1))
        if additionalDemand == .unlimited { didRequest(additionalDemand) }
    }

    @usableFromInline
    override func cancelUpstreams() {
        let all: [Subscription] = lock.withLock {
            defer { outer = nil }
            return [outer].compactMap { $0 } + inners.removeAll()
        }
        for subscription in all {
            subscription.cancel()
        }
    }

    // MARK: The upstream

    @inlinable
    func receiveOuter(subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard outer == nil, !isTerminated else { return false }
            outer = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(switching ? .unlimited : maxPublishers)
    }

    @inlinable
    func receiveOuter(_ value: Upstream.Output) {
        let inner = transform(value)
        // Two results, not a tuple: an optional tuple holding an existential is copied and
        // destroyed through run-time value witnesses.
        var replaced: [Subscription] = []
        let id: InnerTable.ID? = lock.withLock {
            guard !isTerminated else { return nil }
            if switching { replaced = inners.removeAll() }
            return inners.insert()
        }
        guard let id else { return }
        for subscription in replaced { subscription.cancel() }
        inner.subscribe(InnerChild(owner: self, id: id))
    }

    @inlinable
    func receiveOuter(completion: Subscribers.Completion<Downstream.Failure>) {
        if case .failure = completion {
            fail(completion)
            return
        }
        let finishedOuter: Subscription? = lock.withLock {
            outerFinished = true
            if inners.isEmpty { finishLocked(.finished) }
            return outer.take()
        }
        _ = finishedOuter  // released here, outside the lock
        drain()
    }

    // MARK: The inner publishers

    @inlinable
    func receiveInner(subscription: Subscription, id: InnerTable.ID) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, inners.attach(subscription, to: id) else { return nil }
            if switching { return unqueuedDemandLocked }
            return unlimited ? .unlimited : .max(1)
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    /// An inner's value. flatMap, as Apple's: a value that goes straight to the subscriber
    /// answers its inner with `.max(1)` (`.none` under unlimited demand); a value that has to
    /// wait is queued with its inner, which is asked for one more once it is delivered.
    @inlinable
    func receiveInner(_ value: Downstream.Input, id: InnerTable.ID) -> Subscribers.Demand {
        let me = currentThreadID()
        var previous: UInt = 0
        var answer = Subscribers.Demand.none
        var direct: Downstream?
        let live: Bool = lock.withLock {
            guard inners.contains(id), !isTerminated else { return false }
            if !switching, let downstream = claimDirectDeliveryLocked(me: me, previous: &previous) {
                direct = downstream
                if !unlimited { answer = .max(1) }
                return true
            }
            enqueueLocked(value)
            if !switching && !unlimited { origins.append(id) }
            return true
        }
        guard live else { return .none }
        guard let direct else {
            drain()
            return .none
        }
        let more = deliverDirectly(value, to: direct, previous: previous)
        if more == .unlimited { didRequest(more) }
        return answer
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, id: InnerTable.ID) {
        if case .failure = completion {
            let live = lock.withLock { inners.contains(id) }
            if live { fail(completion) }
            return
        }
        var finishedInner: Subscription?  // released after the lock
        let askForAnother: Subscription? = lock.withLock {
            guard inners.remove(id, releasing: &finishedInner) else { return nil }
            if outerFinished && inners.isEmpty { finishLocked(.finished) }
            return switching || maxPublishers == .unlimited ? nil : outer
        }
        _ = finishedInner
        askForAnother?.request(.max(1))
        drain()
    }

    @inlinable
    func fail(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let first = lock.withLock { finishLocked(completion) }
        if first { cancelUpstreams() }
        drain()
    }

    @usableFromInline
    struct OuterChild: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let owner: FlatMapSubscription
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(owner: FlatMapSubscription) {
            self.owner = owner
        }

        @usableFromInline var description: String { owner.description }

        @inlinable
        func receive(subscription: Subscription) {
            owner.receiveOuter(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            owner.receiveOuter(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            owner.receiveOuter(completion: completion)
        }
    }

    @usableFromInline
    struct InnerChild: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Inner.Output
        @usableFromInline typealias Failure = Inner.Failure

        @usableFromInline let owner: FlatMapSubscription
        @usableFromInline let id: InnerTable.ID
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(owner: FlatMapSubscription, id: InnerTable.ID) {
            self.owner = owner
            self.id = id
        }

        @usableFromInline var description: String { owner.description }

        @inlinable
        func receive(subscription: Subscription) {
            owner.receiveInner(subscription: subscription, id: id)
        }

        @inlinable
        func receive(_ input: Inner.Output) -> Subscribers.Demand {
            owner.receiveInner(input, id: id)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Inner.Failure>) {
            owner.receiveInner(completion: completion, id: id)
        }
    }
}
