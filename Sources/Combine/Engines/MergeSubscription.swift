// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The one implementation behind `Merge` … `Merge8` and `MergeMany`, pacing every upstream as
/// Apple's does:
///
/// - each upstream is asked for one value when its subscription arrives (`.unlimited` if the
///   subscriber has asked for that already), and for one more, through its `receive(_:)`
///   result, each time one of its values goes to the subscriber; the subscriber's own
///   requests never reach the upstreams, except an `.unlimited` one, which they all get;
/// - a value that finds no demand is kept, one per upstream (a newer one replaces it), and a
///   later request delivers the kept values in upstream order, asking each of those upstreams
///   for one more;
/// - it finishes when every upstream has finished (after the kept values), and fails as soon as
///   one fails, cancelling every upstream, the failed one too;
/// - a request for nothing is ignored.
///
/// Calls into the subscriber never overlap: a value that arrives while another thread is
/// delivering is queued within the demand (or kept when there is none) and delivered by that
/// thread.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: QueuedSubscription<Downstream>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var upstreams: [Subscription?]
    /// The value each upstream sent without demand for it, if any.
    @usableFromInline @exclusivity(unchecked) var kept: [Downstream.Input?]
    @usableFromInline @exclusivity(unchecked) var keptCount = 0
    @usableFromInline @exclusivity(unchecked) var finishedCount = 0
    /// Whether the upstreams have been asked for `.unlimited` (the subscriber asked for it).
    @usableFromInline @exclusivity(unchecked) var unlimited = false

    @inlinable
    init(downstream: Downstream, count: Int, name: String) {
        upstreams = Array(repeating: nil, count: count)
        kept = Array(repeating: nil, count: count)
        super.init(downstream: downstream, name: name)
    }

    /// Hands the subscription downstream, then subscribes to each upstream in order.
    @inlinable
    func subscribe<Upstream: Publisher>(to publishers: [Upstream])
    where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        start()
        if publishers.isEmpty {
            lock.withLock { _ = finishLocked(.finished) }
            drain()
            return
        }
        for (index, publisher) in publishers.enumerated() {
            subscribeUpstream(publisher, at: index)
        }
    }

    /// Subscribes to one upstream (call ``QueuedSubscription/start()`` first). Called with the upstream's
    /// concrete type, so its deliveries run code specialised for it.
    @inlinable
    func subscribeUpstream<Upstream: Publisher>(_ publisher: Upstream, at index: Int)
    where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        publisher.subscribe(Child(merge: self, index: index))
    }

    /// As Apple's merge, a request for nothing is accepted and changes nothing.
    @usableFromInline
    override func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        super.request(demand)
    }

    /// New demand (requested, or returned by the subscriber): queues the kept values it allows,
    /// in upstream order, asking each of their upstreams for one more; passes `.unlimited` on
    /// to every upstream the first time the demand becomes unlimited.
    @usableFromInline
    override func didRequest(_ demand: Subscribers.Demand) {
        // (Once terminated nothing is kept: the end took the kept values.)
        let (asks, becameUnlimited): ([Subscription], Bool) = lock.withLock {
            guard !isTerminated else { return ([], false) }
            var asks: [Subscription] = []
            for index in kept.indices where keptCount > 0 && unqueuedDemandLocked > 0 {
                guard let value = kept[index].take() else { continue }
                keptCount -= 1
                enqueueLocked(value)
                if !unlimited, let upstream = upstreams[index] { asks.append(upstream) }
            }
            guard !unlimited, self.demand == .unlimited else { return (asks, false) }
            unlimited = true
            return (upstreams.compactMap { $0 }, true)
        }
        for upstream in asks { upstream.request(becameUnlimited ? .unlimited : .max(1)) }
    }

    /// Under the lock: takes every kept value out, in upstream order (`nil` where none).
    @usableFromInline
    func takeKeptLocked() -> [Downstream.Input?] {
        var taken = [Downstream.Input?](repeating: nil, count: kept.count)
        swap(&taken, &kept)
        keptCount = 0
        return taken
    }

    @usableFromInline
    override func cancelUpstreams() {
        var released: [Downstream.Input?] = []  // kept values, released after the lock
        let upstreams: [Subscription?] = lock.withLock {
            defer { self.upstreams = self.upstreams.map { _ in nil } }
            released = takeKeptLocked()
            return self.upstreams
        }
        withExtendedLifetime(released) {}
        for upstream in upstreams {
            upstream?.cancel()
        }
    }

    @usableFromInline
    func receive(subscription: Subscription, at index: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, upstreams[index] == nil else { return nil }
            upstreams[index] = subscription
            return unlimited ? .unlimited : .max(1)
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        subscription.request(demand)
    }

    /// A value from upstream `index`: queued within the subscriber's demand and delivered by
    /// this thread unless another one is delivering (then by that one), or kept when there is no
    /// demand for it. Returns what the upstream is asked for: one more value for a value that
    /// goes on (none when the upstreams have `.unlimited`), none for a value kept.
    ///
    /// One lock acquisition decides and queues (the serial-delivery engine's `serveLocked`): the
    /// contended case pays no second one.
    @inlinable
    func receive(_ value: Downstream.Input, at index: Int) -> Subscribers.Demand {
        var goesOn = false
        var answer = Subscribers.Demand.none
        var replaced: Downstream.Input?  // a kept value the new one replaces, after the lock
        lock.acquire()
        if !isTerminated {
            if unqueuedDemandLocked > 0 {
                enqueueLocked(value)
                goesOn = true
                if !unlimited { answer = .max(1) }
            } else {
                replaced = kept[index]
                if replaced == nil { keptCount += 1 }
                kept[index] = value
            }
        }
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: true, queued: { queue.count },
            next: { nextDeliveryLocked() }, deliver: { deliver($0) })
        withExtendedLifetime(replaced) {}
        return goesOn ? answer : .none
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        var finishedUpstream: Subscription?  // released after the lock
        var dropped: [Downstream.Input?] = []  // kept values a failure drops, released once it is delivered
        let failed: Bool = lock.withLock {
            guard !isTerminated else { return false }
            switch completion {
            case .finished:
                finishedUpstream = upstreams[index].take()
                finishedCount += 1
                guard finishedCount == upstreams.count else { return false }
                // The kept values go before the end, as the demand allows.
                for value in takeKeptLocked() {
                    if let value { enqueueLocked(value) }
                }
                finishLocked(.finished)
                return false
            case .failure:
                // As Apple's, a failure cancels every upstream, the failed one too.
                guard finishLocked(completion) else { return false }
                dropped = takeKeptLocked()
                return true
            }
        }
        withExtendedLifetime(finishedUpstream) {}
        if failed { cancelUpstreams() }
        drain()
        withExtendedLifetime(dropped) {}
    }

    @usableFromInline
    struct Child: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Downstream.Input
        @usableFromInline typealias Failure = Downstream.Failure

        @usableFromInline let merge: MergeSubscription
        @usableFromInline let index: Int
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(merge: MergeSubscription, index: Int) {
            self.merge = merge
            self.index = index
        }

        @usableFromInline var description: String { merge.description }

        @inlinable
        func receive(subscription: Subscription) {
            merge.receive(subscription: subscription, at: index)
        }

        @inlinable
        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            merge.receive(input, at: index)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            merge.receive(completion: completion, at: index)
        }
    }
}
