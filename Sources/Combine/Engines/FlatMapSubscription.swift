// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

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
/// It finishes when the upstream and every inner publisher have finished, and fails as soon
/// as any of them fails. Who is cancelled then is Apple's rule:
///
/// | event | upstream | inner publishers |
/// | --- | --- | --- |
/// | the subscriber cancels | cancelled, after the inners | all cancelled |
/// | the upstream fails | let go, not cancelled | all cancelled before the failure goes out |
/// | an inner fails (flatMap) | let go, not cancelled | the others cancelled; the failed one let go |
/// | the inner fails (switchToLatest) | cancelled | the failed one let go |
///
/// An upstream left alone may keep this subscription, so everything else — the subscriber,
/// the transform — is let go at the end.
///
/// As Apple's, the subscription is itself the upstream's subscriber (one object, one
/// combine identifier), with an empty mirror; each inner's subscriber mirrors the identifier
/// of this subscription as `parentSubscription`.
///
/// `switchToLatest` delivers a value of its inner straight to the subscriber and hands the
/// subscriber's answer back to the inner as the demand `receive(_:)` returns; a value beyond
/// the subscriber's demand traps, as in Apple's.
@usableFromInline
final class FlatMapSubscription<Upstream: Publisher, Inner: Publisher, Downstream: Subscriber>: QueuedSubscription<
    Downstream
>,
Subscriber, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
    Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline typealias Input = Upstream.Output

    /// Replaced by a closure that holds nothing once the subscription has ended.
    @usableFromInline @exclusivity(unchecked) var transform: (Upstream.Output) -> Inner
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
    /// The thread cancelling the inners because the upstream failed: an upstream completion
    /// from that thread meanwhile is a second completion, which traps (as Apple's).
    @usableFromInline @exclusivity(unchecked) var failingOuterThread: UInt = 0

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
        upstream.subscribe(self)
    }

    @usableFromInline
    override var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }

    /// Under the lock, at the end: lets go of the transform (and what it captured).
    @inlinable
    func releaseTransformLocked() -> (Upstream.Output) -> Inner {
        defer { transform = { _ in apiViolation("unreachable: the transform runs only before the end") } }
        return transform
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

    /// switchToLatest: the request reaches the inners present when the demand is added, in one
    /// critical section, so that an inner subscribing meanwhile (which is asked for the
    /// outstanding demand, this request included) is not asked for it twice.
    @usableFromInline
    override func request(_ demand: Subscribers.Demand) {
        guard switching else {
            super.request(demand)
            return
        }
        demand.assertNonZero()
        let me = currentThreadID()
        var nested = false
        let inners: [Subscription]? = lock.withLock {
            guard downstream != nil else { return nil }
            self.demand += demand
            nested = isDeliveringLocked(me: me)
            return self.inners.subscriptions
        }
        guard let inners else { return }
        for inner in inners { inner.request(demand) }
        if !nested { drain(afterQueuing: false) }
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

    /// The subscriber cancelled: the inners first, then the upstream, as Apple's.
    @usableFromInline
    override func cancelUpstreams() {
        var transform: ((Upstream.Output) -> Inner)?  // released after the lock
        let all: [Subscription] = lock.withLock {
            transform = releaseTransformLocked()
            return inners.removeAll() + [outer.take()].compactMap { $0 }
        }
        withExtendedLifetime(transform) {}
        for subscription in all {
            subscription.cancel()
        }
    }

    // MARK: The upstream

    // MARK: Subscriber (the upstream)

    @inlinable
    func receive(subscription: Subscription) {
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
    func receive(_ value: Upstream.Output) -> Subscribers.Demand {
        receiveOuter(value)
        return .none
    }

    /// Makes and subscribes the inner publisher of an upstream value.
    @inlinable
    func receiveOuter(_ value: Upstream.Output) {
        lock.acquire()
        guard !isTerminated else {
            lock.release()
            return
        }
        // Separate values, not a tuple or optionals: those of generic types are copied and
        // destroyed through run-time metadata.
        let replaced = switching ? inners.removeAll() : []
        let transform = self.transform
        let id = inners.insert()
        lock.release()
        for subscription in replaced { subscription.cancel() }
        transform(value).subscribe(FlatMapInnerChild(owner: self, id: id))
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let me = currentThreadID()
        lock.acquire()
        if failingOuterThread == me {
            lock.release()
            apiViolation("\(description) received a completion from its upstream after the upstream failed")
        }
        lock.release()
        if case .failure = completion {
            // As Apple's: the inners are cancelled before the failure goes out; the upstream,
            // which has ended, is let go without a cancel.
            var transform: ((Upstream.Output) -> Inner)?  // released after the lock
            var outer: Subscription?
            let inners: [Subscription]? = lock.withLock {
                guard finishLocked(completion) else { return nil }
                transform = releaseTransformLocked()
                outer = self.outer.take()
                failingOuterThread = me
                return self.inners.removeAll()
            }
            _ = (transform, outer)
            for inner in inners ?? [] { inner.cancel() }
            if inners != nil { lock.withLock { failingOuterThread = 0 } }
            drain()
            return
        }
        var transform: ((Upstream.Output) -> Inner)?  // released after the lock
        let finishedOuter: Subscription? = lock.withLock {
            outerFinished = true
            if inners.isEmpty, finishLocked(.finished) { transform = releaseTransformLocked() }
            return outer.take()
        }
        _ = (finishedOuter, transform)  // released here, outside the lock
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
    /// wait is queued with its inner, which is asked for one more once it is delivered. As
    /// Apple's, an inner's value is taken while the flatMap runs even after that inner
    /// finished.
    ///
    /// switchToLatest, as Apple's: only the current inner's values count; one goes straight to
    /// the subscriber (queued only while another thread is delivering), and the subscriber's
    /// answer is returned to the inner; a value beyond the subscriber's demand traps.
    @inlinable
    func receiveInner(_ value: Downstream.Input, id: InnerTable.ID) -> Subscribers.Demand {
        let me = currentThreadID()
        var answer = Subscribers.Demand.none
        lock.acquire()
        guard !isTerminated, !switching || inners.contains(id) else {
            lock.release()
            return .none
        }
        if switching && unqueuedDemandLocked == .none {
            lock.release()
            apiViolation("\(description) received a value from its inner publisher beyond the demand")
        }
        // Who delivers it, decided in this critical section (one lock per queued value).
        let delivered = deliverOwnLocked(
            value, me: me,
            take: {
                guard let direct = takeDemandLocked() else { return nil }
                if !switching && !unlimited { answer = .max(1) }
                return direct
            },
            enqueue: {
                enqueueLocked(value)
                if !switching && !unlimited { origins.append(id) }
            })
        guard let more = delivered else { return .none }
        if switching { return more }
        if more == .unlimited { didRequest(more) }
        return answer
    }

    @inlinable
    func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, id: InnerTable.ID) {
        if switching {
            // As Apple's: the current inner completing before its subscription traps.
            let early = lock.withLock { inners.isAwaitingSubscription(id) }
            if early {
                apiViolation(
                    "\(description) received a completion from its inner publisher before its subscription")
            }
        }
        if case .failure = completion {
            failFromInner(completion, id: id)
            return
        }
        var finishedInner: Subscription?  // released after the lock
        var transform: ((Upstream.Output) -> Inner)?
        let askForAnother: Subscription? = lock.withLock {
            // switchToLatest, as Apple's: the finished inner stays current.
            let removed =
                switching
                ? inners.markFinished(id, releasing: &finishedInner) : inners.remove(id, releasing: &finishedInner)
            // flatMap, as Apple's: any `.finished` of an inner while the flatMap runs asks the
            // upstream for another, even one from an inner that had finished already.
            guard removed || (!switching && !isTerminated) else { return nil }
            if outerFinished && inners.isEmpty, finishLocked(.finished) { transform = releaseTransformLocked() }
            return switching || maxPublishers == .unlimited ? nil : outer
        }
        _ = (finishedInner, transform)
        askForAnother?.request(.max(1))
        drain()
    }

    /// An inner failed: the others are cancelled and the failed one let go; flatMap lets the
    /// upstream go, switchToLatest cancels it (Apple's rule, see the type's table).
    @inlinable
    func failFromInner(_ completion: Subscribers.Completion<Downstream.Failure>, id: InnerTable.ID) {
        var transform: ((Upstream.Output) -> Inner)?  // released after the lock
        var failed: Subscription?
        var outer: Subscription?
        let others: [Subscription]? = lock.withLock {
            guard inners.contains(id), finishLocked(completion) else { return nil }
            transform = releaseTransformLocked()
            _ = inners.remove(id, releasing: &failed)
            outer = self.outer.take()
            return inners.removeAll()
        }
        _ = (transform, failed)
        guard let others else { return }
        for other in others { other.cancel() }
        if switching { outer?.cancel() }
        drain()
    }
}

/// The subscriber of one inner publisher of ``FlatMapSubscription``: as Apple's, it describes
/// itself as the operator and mirrors its subscription's identifier as `parentSubscription`.
///
/// Top-level rather than nested in the subscription class: nested in a generic class that is
/// itself a `Subscriber`, the optimiser left the inner publisher's `subscribe` unspecialised
/// (about five times the instructions per value of `flatMap { Just($0) }`).
@usableFromInline
struct FlatMapInnerChild<Upstream: Publisher, Inner: Publisher, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where
    Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    @usableFromInline typealias Input = Inner.Output
    @usableFromInline typealias Failure = Inner.Failure

    @usableFromInline let owner: FlatMapSubscription<Upstream, Inner, Downstream>
    @usableFromInline let id: InnerTable.ID
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(owner: FlatMapSubscription<Upstream, Inner, Downstream>, id: InnerTable.ID) {
        self.owner = owner
        self.id = id
    }

    @usableFromInline var description: String { owner.description }
    @usableFromInline var playgroundDescription: Any { owner.description }
    @usableFromInline var customMirror: Mirror {
        Mirror(self, children: ["parentSubscription": owner.combineIdentifier])
    }

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
