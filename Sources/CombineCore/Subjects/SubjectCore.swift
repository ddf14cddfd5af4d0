/// The state and logic shared by ``PassthroughSubject`` and ``CurrentValueSubject``:
/// the subscribers (as conduits), the completion, the upstream subscriptions fed into
/// the subject, and — for a current-value subject — the value.
///
/// Every method takes the lock only to read or change state, and calls conduits and
/// upstream subscriptions after releasing it.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var conduits = ContiguousArray<SubjectConduit<Output, Failure>?>()
    @usableFromInline @exclusivity(unchecked) var liveConduits = 0
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    @usableFromInline @exclusivity(unchecked) var upstreams: [Subscription] = []
    /// Whether upstream subscriptions sent to the subject are asked for `.unlimited` at once.
    /// A passthrough subject starts without and gets it when a subscriber first requests
    /// values; a current-value subject asks at once, as Apple's does.
    @usableFromInline @exclusivity(unchecked) var hasDownstreamDemand: Bool
    /// The current value of a ``CurrentValueSubject``; always `nil` for a passthrough one.
    @usableFromInline @exclusivity(unchecked) var current: Output?

    /// The subject's type name, which its subscriptions show as their description.
    @usableFromInline let name: String

    @usableFromInline
    init(current: Output?, name: String, requestsUpstreamAtOnce: Bool = false) {
        self.current = current
        self.name = name
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
        let snapshot: ContiguousArray<SubjectConduit<Output, Failure>?>? = lock.withLock {
            guard completion == nil else {
                if storingAfterCompletion { current = value }
                return nil
            }
            if current != nil { current = value }
            return conduits
        }
        guard let snapshot else { return }
        for conduit in snapshot {
            conduit?.offer(value)
        }
    }

    @usableFromInline
    func send(completion: Subscribers.Completion<Failure>) {
        let snapshot: ContiguousArray<SubjectConduit<Output, Failure>?>? = lock.withLock {
            guard self.completion == nil else { return nil }
            self.completion = completion
            defer {
                conduits = []
                liveConduits = 0
                upstreams = []
            }
            return conduits
        }
        guard let snapshot else { return }
        for conduit in snapshot {
            conduit?.finish(completion)
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
        let conduit = SubjectConduit(core: self, downstream: .init(subscriber), name: name)
        let completed: Subscribers.Completion<Failure>? = lock.withLock {
            if let completion { return completion }
            conduit.slot = conduits.count
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

    /// Called once per conduit, on its first request.
    @usableFromInline
    func conduitDidRequestFirstDemand(_ conduit: SubjectConduit<Output, Failure>) {
        let (upstreams, current): ([Subscription], Output?) = lock.withLock {
            defer { hasDownstreamDemand = true }
            return (hasDownstreamDemand ? [] : self.upstreams, self.current)
        }
        for upstream in upstreams {
            upstream.request(.unlimited)
        }
        if let current { conduit.offer(current) }
    }

    @usableFromInline
    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        lock.withLock {
            let slot = conduit.slot
            guard slot >= 0, slot < conduits.count, conduits[slot] === conduit else { return }
            conduits[slot] = nil
            conduit.slot = -1
            liveConduits -= 1
            if liveConduits == 0 {
                conduits.removeAll(keepingCapacity: true)
            } else if conduits.count >= 16 && liveConduits * 2 < conduits.count {
                // Compact the holes left by cancelled subscribers, keeping subscription order.
                conduits = ContiguousArray(conduits.lazy.compactMap { $0 })
                for (index, live) in conduits.enumerated() { live?.slot = index }
            }
        }
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
