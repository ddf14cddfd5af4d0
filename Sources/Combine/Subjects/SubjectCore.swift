// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The state and logic shared by ``PassthroughSubject`` and ``CurrentValueSubject``:
/// the subscribers (as conduits), the completion, the upstream subscriptions fed into
/// the subject, and — for a current-value subject — the value.
///
/// Every method takes the lock only to read or change state, and calls conduits and
/// upstream subscriptions after releasing it.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: CustomStringConvertible, @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// The conduits in subscription order, with holes where subscribers left. Stored as
    /// `AnyObject` so that the list is one concrete type: removing a conduit, which runs
    /// unspecialised, then uses the standard library's specialised array operations instead
    /// of generic ones that look up metadata. Every element is a `SubjectConduit<Output, Failure>`.
    @usableFromInline @exclusivity(unchecked) var conduits = ContiguousArray<AnyObject?>()
    @usableFromInline @exclusivity(unchecked) var liveConduits = 0
    /// A send has taken ``conduits`` out of the lock to iterate it since the list was last
    /// changed: the next change writes a fresh copy instead of the shared buffer. The buffer is
    /// only ever changed in place by the thread that knows no sender still reads it (its
    /// reference count says so), but that count lives in the runtime, where ThreadSanitizer
    /// does not look: changing the buffer in place right after a sender let go of its copy was
    /// reported as a race with that sender's reads. A fresh buffer has no earlier reader.
    @usableFromInline @exclusivity(unchecked) var listShared = false
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    @usableFromInline @exclusivity(unchecked) var upstreams: [Subscription] = []
    /// Whether upstream subscriptions sent to the subject are asked for `.unlimited` at once.
    /// A passthrough subject starts without and gets it when a subscriber first requests
    /// values; a current-value subject asks at once, as Apple's does.
    @usableFromInline @exclusivity(unchecked) var hasDownstreamDemand: Bool
    /// The current value of a ``CurrentValueSubject``; always `nil` for a passthrough one.
    @usableFromInline @exclusivity(unchecked) var current: Output?
    /// How many values a current-value subject has sent: each send is numbered, so that a
    /// subscriber that was first given the current value skips sends made before it (see
    /// ``offerCurrentValue(to:adding:replay:)``).
    @usableFromInline @exclusivity(unchecked) var sentCount: UInt = 0
    /// Whether this is a current-value subject's core (known without reading the generic
    /// `current`, which unspecialised code could only do by looking up its metadata).
    @usableFromInline let holdsCurrentValue: Bool

    /// Which subject this is; its subscriptions show its name as their description.
    @usableFromInline let kind: SubjectKind

    /// The subject's type, as its subscriptions' mirrors show it.
    @usableFromInline
    var description: String { "\(kind.name)<\(Output.self), \(Failure.self)>" }

    @usableFromInline
    init(current: Output?, kind: SubjectKind, requestsUpstreamAtOnce: Bool = false) {
        self.current = current
        self.holdsCurrentValue = current != nil
        self.kind = kind
        self.hasDownstreamDemand = requestsUpstreamAtOnce
    }

    @usableFromInline
    var currentValue: Output {
        lock.withLock { current! }
    }

    /// Sends `value` to every subscriber that has demand for it. A completed subject ignores it.
    @inlinable
    func send(_ value: Output) {
        send(value, storingAfterCompletion: false)
    }

    /// Sets the current value and sends it. After completion the value is still stored
    /// though nothing is sent, as Apple's `CurrentValueSubject.value` setter does.
    @inlinable
    func setCurrentValue(_ value: Output) {
        send(value, storingAfterCompletion: true)
    }

    @inlinable
    func send(_ value: Output, storingAfterCompletion: Bool) {
        var replaced: Output?  // the previous current value, released after the lock
        var number: UInt = 1
        let snapshot: ContiguousArray<AnyObject?>? = lock.withLock {
            guard completion == nil else {
                if storingAfterCompletion {
                    replaced = current
                    current = value
                }
                return nil
            }
            if holdsCurrentValue {
                replaced = current
                current = value
                sentCount &+= 1
                number = sentCount
            }
            listShared = true
            return conduits
        }
        withExtendedLifetime(replaced) {}
        guard let snapshot else { return }
        // The snapshot holds the conduits: each is reached without a retain of its own (taken as
        // the bits of the reference the snapshot holds; a hole is 0).
        for index in snapshot.indices {
            guard let reference = UnsafeRawPointer(bitPattern: unsafeBitCast(snapshot[index], to: UInt.self)) else {
                continue
            }
            Unmanaged<SubjectConduit<Output, Failure>>.fromOpaque(reference)._withUnsafeGuaranteedRef {
                $0.offer(value, number: number, siblings: snapshot)
            }
        }
    }

    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        var upstreams: [Subscription] = []  // released after the lock
        let snapshot: ContiguousArray<AnyObject?>? = lock.withLock {
            guard self.completion == nil else { return nil }
            self.completion = completion
            swap(&upstreams, &self.upstreams)
            defer {
                conduits = []
                liveConduits = 0
            }
            return conduits
        }
        withExtendedLifetime(upstreams) {}
        guard let snapshot else { return }
        for conduit in snapshot {
            if let conduit { Self.conduit(conduit).finish(completion) }
        }
    }

    @usableFromInline
    func send(subscription: Subscription) {
        let request: Bool = lock.withLock {
            upstreams.append(subscription)
            return hasDownstreamDemand
        }
        if request { subscription.request(.unlimited) }
    }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // This thread delivers the subscription: the conduit is created with this thread holding
        // its role, before it is published in the list, so that a completion sent from another
        // thread meanwhile waits behind it instead of reaching the subscriber first.
        let conduit = SubjectConduit(core: self, downstream: .init(subscriber), kind: kind)
        let completed: Subscribers.Completion<Failure>? = lock.withLock {
            if let completion { return completion }
            conduit.slot = conduits.count
            unshareListLocked()
            conduits.append(conduit)
            liveConduits += 1
            return nil
        }
        if let completed {
            subscriber.receiveSubscriptionAndCompletion(completed)
            return
        }
        conduit.deliverSubscription(to: subscriber)
    }

    /// Called once per conduit, on its first request (`demand`), which a current-value
    /// subject's conduit leaves for ``offerCurrentValue(to:adding:replay:)`` to add.
    @usableFromInline
    func conduitDidRequestFirstDemand(_ conduit: SubjectConduit<Output, Failure>, demand: Subscribers.Demand) {
        lock.acquire()
        let upstreams = hasDownstreamDemand ? [] : self.upstreams
        hasDownstreamDemand = true
        lock.release()
        for upstream in upstreams {
            upstream.request(.unlimited)
        }
        if holdsCurrentValue { offerCurrentValue(to: conduit, adding: demand) }
    }

    /// A current-value subject's first delivery to a new subscriber: the subscriber's first
    /// demand is added and the current value admitted for delivery in one critical section of
    /// the subject's lock (then the conduit's). A value sent from another thread either became
    /// the current value before it — delivered once, as the current value: the conduit skips
    /// that send's own offer, which may still be on its way, by its number — or is sent after
    /// it, and delivered after it (or queued behind it): never twice, never older after newer.
    ///
    /// Kept out of ``conduitDidRequestFirstDemand(_:demand:)``, which runs unspecialised: a
    /// generic optional local there made every first request of every subject look up
    /// `Optional<Output>`'s metadata (about 300 instructions per subscription).
    ///
    /// `replay`: the subscriber missed a value for lack of demand and this is its next request;
    /// the current value is given only if it is newer than every value already admitted for it
    /// (with two threads sending, the value missed may be older than one delivered meanwhile).
    @inline(never)
    func offerCurrentValue(
        to conduit: SubjectConduit<Output, Failure>, adding demand: Subscribers.Demand, replay: Bool = false
    ) {
        let me = currentThreadID()
        lock.acquire()
        conduit.lock.acquire()
        var decided: ((RoleDecision, SubjectConduit<Output, Failure>.Downstream), Output, UInt)?
        if conduit.downstream != nil, !conduit.terminated {
            // The number first, then the demand: a thread delivering without the lock reads
            // them in the other order (`SubjectConduit.offer`).
            interleavingPoint()
            conduit.offeredThroughWord.store(sentCount, ordering: .relaxed)
            conduit.addDemand(demand)
            if completion == nil, let current, !replay || sentCount > conduit.admittedThrough,
                let offer = conduit.offerCurrentLocked(current, number: sentCount, me: me)
            {
                decided = (offer, current, sentCount)
            }
        }
        conduit.lock.release()
        lock.release()
        if let decided { conduit.deliverDecided(decided.0, decided.1, number: decided.2) }
    }

    /// Called by a cancelled conduit, unspecialised (through `any Subscription`): it avoids the
    /// standard library's non-inlinable generic operations in the common cases.
    @usableFromInline
    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        lock.acquire()
        defer { lock.release() }
        let slot = conduit.slot
        guard slot >= 0, slot < conduits.count, conduits[slot] === conduit else { return }
        unshareListLocked()
        conduits[slot] = nil
        conduit.slot = -1
        liveConduits -= 1
        if slot == conduits.count - 1 {
            // The last one: drop it and the holes before it.
            while let last = conduits.last, last == nil { conduits.removeLast() }
        } else if conduits.count >= 16 && liveConduits * 2 < conduits.count {
            // Compact the holes left by cancelled subscribers, keeping subscription order.
            conduits = ContiguousArray(conduits.lazy.compactMap { $0 })
            for (index, live) in conduits.enumerated() { Self.conduit(live!).slot = index }
        }
    }

    /// Under the lock, before changing ``conduits``: gives the list a buffer of its own if a
    /// send may still be reading the current one (see ``listShared``). O(n) only for the first
    /// change after a send; changes in a row (subscribing many) stay O(1).
    @inlinable
    func unshareListLocked() {
        guard listShared else { return }
        listShared = false
        var copy = ContiguousArray<AnyObject?>()
        copy.reserveCapacity(conduits.count + 1)
        copy.append(contentsOf: conduits)
        conduits = copy
    }

    /// A conduit of this subject's list.
    @inlinable
    @inline(__always)
    static func conduit(_ object: AnyObject) -> SubjectConduit<Output, Failure> {
        unsafeDowncast(object, to: SubjectConduit<Output, Failure>.self)
    }

    /// Whether thread `me` is calling the subscriber of one of `conduits` now: a sender that is
    /// does not wait for room in another conduit's backlog, since that conduit's delivering
    /// thread may itself be sending into this subject from its subscriber and waiting for room
    /// in `me`'s (each would wait for the other for ever). Only a full backlog asks.
    @usableFromInline
    @inline(never)
    static func isDelivering(_ me: UInt, toAnyOf conduits: ContiguousArray<AnyObject?>) -> Bool {
        conduits.contains { $0.map { conduit($0).delivery.isDelivering(me: me) } ?? false }
    }

    /// Lets go of an upstream subscription sent to the subject (by identity) that has been
    /// cancelled: a subject fed by connection after connection (`share()`, `multicast`) would
    /// otherwise keep every one of them until it completes or goes away.
    @usableFromInline
    func forgetUpstream(_ subscription: AnyObject) {
        lock.acquire()
        var removed: Subscription?
        if let index = upstreams.firstIndex(where: { ($0 as AnyObject) === subscription }) {
            removed = upstreams.remove(at: index)
        }
        lock.release()
        withExtendedLifetime(removed) {}  // released here, outside the lock
    }

    /// Cancels the upstream subscriptions sent to the subject; called when the subject goes away.
    @usableFromInline
    func cancelUpstreams() {
        let upstreams: [Subscription] = lock.withLock {
            defer { self.upstreams = [] }
            return self.upstreams
        }
        for upstream in upstreams {
            upstream.cancel()
        }
    }
}
