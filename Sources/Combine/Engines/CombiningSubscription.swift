// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// What ``CombiningSubscription`` tracks of every upstream whatever its value type: its
/// subscription, whether it finished, and how many values it has ready. Not generic, so the
/// bookkeeping over all upstreams runs without looking up type metadata.
@usableFromInline
class CombiningSlotState: @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var subscription: Subscription?
    @usableFromInline @exclusivity(unchecked) var finished = false
    /// Values ready to combine: queued ones for `zip`; 0 or 1 (the latest) for `combineLatest`.
    @usableFromInline @exclusivity(unchecked) var available = 0

    @inlinable
    init() {}

    @inlinable
    final var isEmpty: Bool { available == 0 }
}

/// One upstream's values in `zip` (a queue) or `combineLatest` (the latest value). Guarded by
/// the owning ``CombiningSubscription``'s lock.
@usableFromInline
final class CombiningSlot<Input>: CombiningSlotState, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var queue = RingQueue<Input>()
    @usableFromInline @exclusivity(unchecked) var latest: Input?

    @inlinable
    override init() {}

    /// Keeps a value: queued for `zip`, replacing the previous one for `combineLatest`.
    /// - Returns: The value replaced, for the caller to release after the lock.
    @inlinable
    func append(_ value: Input, keepingOnlyLatest: Bool) -> Input? {
        if keepingOnlyLatest {
            available = 1
            let replaced = latest
            latest = value
            return replaced
        }
        queue.append(value)
        available &+= 1
        return nil
    }

    /// The value to combine (call only when not empty): the latest for `combineLatest`
    /// (kept), the oldest queued for `zip` (removed).
    @inlinable
    func take() -> Input {
        if let latest { return latest }
        available &-= 1
        return queue.popFirst()!
    }
}

/// The one implementation behind `Zip`, `Zip3`, `Zip4`, `CombineLatest`, `CombineLatest3`
/// and `CombineLatest4`: a variadic-generic core over the upstreams' output types.
///
/// - `zip` pairs the n-th values of every upstream; it finishes when an upstream has
///   finished and none of its values wait to be paired.
/// - `combineLatest` publishes the latest value of every upstream each time one of them
///   publishes, once all have published and while the subscriber has demand for it (a
///   combination without demand, or made while the subscriber is inside its `receive(_:)` on
///   the same thread, is dropped, as Apple's); it finishes when all have finished.
///
/// The subscriber's requests go to every upstream; any failure cancels the others.
@usableFromInline
final class CombiningSubscription<each Input, Downstream: Subscriber>: QueuedSubscription<Downstream>,
    @unchecked Sendable
where Downstream.Input == (repeat each Input) {
    @usableFromInline let mode: CombiningMode
    /// The upstreams' slots, typed: the N-ary fronts take them apart to subscribe to each upstream.
    @usableFromInline let slots: (repeat CombiningSlot<each Input>)
    /// The same slots, for bookkeeping that needs no values.
    @usableFromInline let states: [CombiningSlotState]
    /// Takes one value from every slot if none is empty. Made by the typed front (see
    /// `subscribeCombining`), where the value types are known, so it runs specialised.
    @usableFromInline @exclusivity(unchecked) var combineLocked: () -> Downstream.Input? = { nil }
    @usableFromInline @exclusivity(unchecked) var requested = Subscribers.Demand.none
    /// `zip`: the upstream whose value completed the tuple being delivered on ``triggerThread``
    /// now, and the demand the subscriber added meanwhile, which goes back to that upstream as
    /// its `receive(_:)` result (Apple's) rather than as a request.
    @usableFromInline @exclusivity(unchecked) var trigger: CombiningSlotState?
    @usableFromInline @exclusivity(unchecked) var triggerThread: UInt = 0
    @usableFromInline @exclusivity(unchecked) var triggerDemand = Subscribers.Demand.none

    @inlinable
    init(mode: CombiningMode, downstream: Downstream, name: String) {
        self.mode = mode
        let slots = (repeat CombiningSlot<each Input>())
        var states: [CombiningSlotState] = []
        for slot in repeat each slots { states.append(slot) }
        self.slots = slots
        self.states = states
        super.init(downstream: downstream, name: name)
        gatesOnDemand = mode == .combineLatest
    }

    /// Subscribes to one upstream for its slot (call ``QueuedSubscription/start()`` first, then this
    /// for each upstream in order). Called with the upstream's own type, so that its deliveries
    /// run code specialised for it.
    @inlinable
    func subscribeUpstream<Upstream: Publisher>(_ publisher: Upstream, to slot: CombiningSlot<Upstream.Output>)
    where Upstream.Failure == Downstream.Failure {
        publisher.subscribe(Child(owner: self, slot: slot))
    }

    /// The upstream subscriptions present now (but `except`'s); with `clearing`, forgotten as
    /// well.
    @usableFromInline
    func subscriptionsLocked(clearing: Bool, except: CombiningSlotState? = nil) -> [Subscription] {
        var all: [Subscription] = []
        for slot in states where slot !== except {
            if let subscription = slot.subscription { all.append(subscription) }
            if clearing { slot.subscription = nil }
        }
        return all
    }

    @usableFromInline
    override func didRequest(_ demand: Subscribers.Demand) {
        let me = currentThreadID()
        let subscriptions: [Subscription] = lock.withLock {
            requested += demand
            guard let trigger, triggerThread == me else { return subscriptionsLocked(clearing: false) }
            // Asked from inside the delivery of a tuple: the upstream that completed it gets
            // this demand as its `receive(_:)` result.
            triggerDemand += demand
            return subscriptionsLocked(clearing: false, except: trigger)
        }
        for subscription in subscriptions {
            subscription.request(demand)
        }
    }

    @usableFromInline
    override func cancelUpstreams() {
        let subscriptions: [Subscription] = lock.withLock {
            subscriptionsLocked(clearing: true)
        }
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    @usableFromInline
    func receive<Value>(subscription: Subscription, for slot: CombiningSlot<Value>) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, slot.subscription == nil else { return nil }
            slot.subscription = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive<Value>(_ value: Value, for slot: CombiningSlot<Value>) -> Subscribers.Demand {
        var replaced: Value?  // the previous latest value, released after the lock
        let me = currentThreadID()
        var saved: (CombiningSlotState?, UInt, Subscribers.Demand) = (nil, 0, .none)
        var cancel = false
        lock.acquire()
        guard !isTerminated else {
            lock.release()
            drain()
            return .none
        }
        replaced = slot.append(value, keepingOnlyLatest: mode == .combineLatest)
        // combineLatest, as Apple's: a combination is made only for a subscriber that has
        // demand left for it and is not inside its own `receive(_:)` on this thread; the value
        // is kept as its upstream's latest either way, but a combination not made is not made
        // later (a request then waits for the next value).
        let skipped = mode == .combineLatest && (isDeliveringLocked(me: me) || unqueuedDemandLocked == .none)
        let made = skipped ? nil : combineLocked()
        guard mode == .zip, let combined = made else {
            if let made { enqueueLocked(made) }  // combineLatest's
            lock.release()
            withExtendedLifetime(replaced) {}
            drain()
            return .none
        }
        // zip, as Apple's: the tuple goes out at once (whatever the demand) from this thread,
        // unless another thread is delivering or outputs are queued ahead of it.
        let delivered = deliverOwnLocked(
            combined, me: me,
            take: {
                guard let downstream else { return nil }
                if demand > 0 { demand -= 1 }
                saved = (trigger, triggerThread, triggerDemand)
                (trigger, triggerThread, triggerDemand) = (slot, me, .none)
                return downstream
            },
            enqueue: {
                enqueueLocked(combined)
                cancel = finishZipIfExhaustedLocked()
            })
        withExtendedLifetime(replaced) {}
        if let more = delivered { return finishTupleDelivery(answered: more, restoring: saved) }
        if cancel { cancelUpstreams() }
        return .none
    }

    /// After the delivery of a tuple an upstream's value completed: the demand the subscriber
    /// asked for meanwhile and answered with goes back to that upstream as its `receive(_:)`
    /// result (Apple's), and the answer is asked of the others too.
    @inlinable
    func finishTupleDelivery(
        answered more: Subscribers.Demand, restoring saved: (CombiningSlotState?, UInt, Subscribers.Demand)
    ) -> Subscribers.Demand {
        var others: [Subscription] = []
        let (returned, exhausted): (Subscribers.Demand, Bool) = lock.withLock {
            let returned = triggerDemand + more
            if more > 0 {
                requested += more
                others = subscriptionsLocked(clearing: false, except: trigger)
            }
            (trigger, triggerThread, triggerDemand) = saved
            return (returned, !isTerminated && finishZipIfExhaustedLocked())
        }
        for other in others { other.request(more) }
        if exhausted {
            cancelUpstreams()
            drain()
        }
        return returned
    }

    @usableFromInline
    func receive<Value>(
        completion: Subscribers.Completion<Downstream.Failure>, for slot: CombiningSlot<Value>
    ) {
        var finishedUpstream: Subscription?  // released after the lock
        let cancel: Bool = lock.withLock {
            guard !isTerminated else { return false }
            slot.finished = true
            if case .failure = completion {
                // zip, as Apple's, cancels every upstream on a failure, the failed one too.
                if mode == .combineLatest { finishedUpstream = slot.subscription.take() }
                return finishLocked(completion)
            }
            finishedUpstream = slot.subscription.take()
            switch mode {
            case .zip:
                return finishZipIfExhaustedLocked()
            case .combineLatest:
                if states.allSatisfy(\.finished) { finishLocked(.finished) }
                return false
            }
        }
        withExtendedLifetime(finishedUpstream) {}
        if cancel { cancelUpstreams() }
        drain()
    }

    /// `zip` can pair no more once a finished upstream has no values left.
    @inlinable
    func finishZipIfExhaustedLocked() -> Bool {
        guard states.contains(where: { $0.finished && $0.isEmpty }) else { return false }
        return finishLocked(.finished)
    }

    @usableFromInline
    struct Child<Value>: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Value
        @usableFromInline typealias Failure = Downstream.Failure

        @usableFromInline let owner: CombiningSubscription
        @usableFromInline let slot: CombiningSlot<Value>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(owner: CombiningSubscription, slot: CombiningSlot<Value>) {
            self.owner = owner
            self.slot = slot
        }

        @usableFromInline var description: String { owner.description }

        @inlinable
        func receive(subscription: Subscription) {
            owner.receive(subscription: subscription, for: slot)
        }

        @inlinable
        func receive(_ input: Value) -> Subscribers.Demand {
            owner.receive(input, for: slot)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            owner.receive(completion: completion, for: slot)
        }
    }
}

/// Whether a ``CombiningSubscription`` zips or combines the latest values.
@usableFromInline
enum CombiningMode {
    case zip
    case combineLatest
}

// The typed entry points of the N-ary fronts: each hands the subscription down, then subscribes
// to every upstream, for its slot, with the upstream's own type (a pack cannot yet require one
// failure type of all its elements, so the arities are spelled out here, once for zip and
// combineLatest).

@inlinable
func subscribeCombining<A: Publisher, B: Publisher, S: Subscriber>(
    _ mode: CombiningMode, _ name: String, _ subscriber: S, _ a: A, _ b: B
) where A.Failure == S.Failure, B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
    let subscription = CombiningSubscription<A.Output, B.Output, S>(mode: mode, downstream: subscriber, name: name)
    subscription.start()
    let (slotA, slotB) = subscription.slots
    subscription.combineLocked = {
        guard !slotA.isEmpty, !slotB.isEmpty else { return nil }
        return (slotA.take(), slotB.take())
    }
    subscription.subscribeUpstream(a, to: slotA)
    subscription.subscribeUpstream(b, to: slotB)
}

@inlinable
func subscribeCombining<A: Publisher, B: Publisher, C: Publisher, S: Subscriber>(
    _ mode: CombiningMode, _ name: String, _ subscriber: S, _ a: A, _ b: B, _ c: C
)
where A.Failure == S.Failure, B.Failure == S.Failure, C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output)
{
    let subscription = CombiningSubscription<A.Output, B.Output, C.Output, S>(
        mode: mode, downstream: subscriber, name: name)
    subscription.start()
    let (slotA, slotB, slotC) = subscription.slots
    subscription.combineLocked = {
        guard !slotA.isEmpty, !slotB.isEmpty, !slotC.isEmpty else { return nil }
        return (slotA.take(), slotB.take(), slotC.take())
    }
    subscription.subscribeUpstream(a, to: slotA)
    subscription.subscribeUpstream(b, to: slotB)
    subscription.subscribeUpstream(c, to: slotC)
}

@inlinable
func subscribeCombining<A: Publisher, B: Publisher, C: Publisher, D: Publisher, S: Subscriber>(
    _ mode: CombiningMode, _ name: String, _ subscriber: S, _ a: A, _ b: B, _ c: C, _ d: D
)
where
    A.Failure == S.Failure, B.Failure == S.Failure, C.Failure == S.Failure, D.Failure == S.Failure,
    S.Input == (A.Output, B.Output, C.Output, D.Output)
{
    let subscription = CombiningSubscription<A.Output, B.Output, C.Output, D.Output, S>(
        mode: mode, downstream: subscriber, name: name)
    subscription.start()
    let (slotA, slotB, slotC, slotD) = subscription.slots
    subscription.combineLocked = {
        guard !slotA.isEmpty, !slotB.isEmpty, !slotC.isEmpty, !slotD.isEmpty else { return nil }
        return (slotA.take(), slotB.take(), slotC.take(), slotD.take())
    }
    subscription.subscribeUpstream(a, to: slotA)
    subscription.subscribeUpstream(b, to: slotB)
    subscription.subscribeUpstream(c, to: slotC)
    subscription.subscribeUpstream(d, to: slotD)
}
