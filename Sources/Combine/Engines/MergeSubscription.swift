import CombineSynchronization

/// The one implementation behind `Merge` … `Merge8` and `MergeMany`: every value from any
/// upstream goes downstream, within the subscriber's demand; the subscriber's requests go
/// to every upstream; it finishes when every upstream has finished, and fails (cancelling
/// the others) as soon as one fails.
@usableFromInline
final class MergeSubscription<Downstream: Subscriber>: QueuedDelivery<Downstream>, @unchecked Sendable {
    @usableFromInline @exclusivity(unchecked) var upstreams: [Subscription?]
    @usableFromInline @exclusivity(unchecked) var finishedCount = 0
    /// Everything requested so far, for an upstream whose subscription arrives late.
    @usableFromInline @exclusivity(unchecked) var requested = Subscribers.Demand.none

    @inlinable
    init(downstream: Downstream, count: Int, name: String) {
        upstreams = Array(repeating: nil, count: count)
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
            attach(publisher, at: index)
        }
    }

    /// Subscribes to one upstream (call ``QueuedDelivery/start()`` first). Called with the upstream's
    /// concrete type, so its deliveries run code specialised for it.
    @inlinable
    func attach<Upstream: Publisher>(_ publisher: Upstream, at index: Int)
    where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        publisher.subscribe(Child(merge: self, index: index))
    }

    @usableFromInline
    override func didRequest(_ demand: Subscribers.Demand) {
        let upstreams: [Subscription?] = lock.withLock {
            requested += demand
            return self.upstreams
        }
        for upstream in upstreams {
            upstream?.request(demand)
        }
    }

    @usableFromInline
    override func cancelUpstreams() {
        let upstreams: [Subscription?] = lock.withLock {
            defer { self.upstreams = self.upstreams.map { _ in nil } }
            return self.upstreams
        }
        for upstream in upstreams {
            upstream?.cancel()
        }
    }

    @usableFromInline
    func receive(subscription: Subscription, at index: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, upstreams[index] == nil else { return nil }
            upstreams[index] = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    @inlinable
    func receive(_ value: Downstream.Input) {
        enqueueAndDrain(value)
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        var finishedUpstream: Subscription?  // released after the lock
        let failed: Bool = lock.withLock {
            finishedUpstream = upstreams[index].take()
            switch completion {
            case .finished:
                finishedCount += 1
                if finishedCount == upstreams.count { finishLocked(.finished) }
                return false
            case .failure:
                return finishLocked(completion)
            }
        }
        withExtendedLifetime(finishedUpstream) {}
        if failed { cancelUpstreams() }
        drain()
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
            merge.receive(input)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            merge.receive(completion: completion, at: index)
        }
    }
}
