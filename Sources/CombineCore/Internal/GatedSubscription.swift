/// The one implementation behind `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`:
/// the upstream's values pass or are dropped depending on whether a second publisher, the
/// trigger, has produced a value yet.
///
/// - `dropUntil`: values are dropped (and replaced by asking upstream for more) until the
///   trigger fires; a failure of the trigger fails the stream.
/// - `prefixUntil`: values pass until the trigger fires, which cancels the upstream and
///   finishes; a failure of the trigger only stops it from firing.
final class GatedSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>: FanIn<Downstream>,
    @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    enum Gate {
        case dropUntil
        case prefixUntil
    }

    private let gate: Gate
    private var upstream: Subscription?
    private var trigger: Subscription?
    private var fired = false
    private var requested = Subscribers.Demand.none
    private let convertTriggerFailure: ((Trigger.Failure) -> Downstream.Failure)?

    /// - Parameter convertTriggerFailure: How a trigger failure fails the stream; `nil` to
    ///   ignore trigger failures.
    init(
        gate: Gate, downstream: Downstream, name: String,
        convertTriggerFailure: ((Trigger.Failure) -> Downstream.Failure)?
    ) {
        self.gate = gate
        self.convertTriggerFailure = convertTriggerFailure
        super.init(downstream: downstream, name: name)
    }

    func subscribe(upstream: Upstream, trigger: Trigger) {
        start()
        trigger.subscribe(TriggerChild(owner: self))
        upstream.subscribe(UpstreamChild(owner: self))
    }

    override func didRequest(_ demand: Subscribers.Demand) {
        let upstream: Subscription? = lock.withLock {
            requested += demand
            return self.upstream
        }
        upstream?.request(demand)
    }

    override func cancelUpstreams() {
        let (upstream, trigger): (Subscription?, Subscription?) = lock.withLock {
            defer {
                self.upstream = nil
                self.trigger = nil
            }
            return (self.upstream, self.trigger)
        }
        upstream?.cancel()
        trigger?.cancel()
    }

    fileprivate func upstreamSubscribed(_ subscription: Subscription) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, upstream == nil else { return nil }
            upstream = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func upstreamValue(_ value: Downstream.Input) -> Subscribers.Demand {
        // `nil`: passed on; otherwise the demand to return upstream for a dropped value.
        let dropped: Subscribers.Demand? = lock.withLock {
            guard !isTerminated else { return Subscribers.Demand.none }
            if gate == .dropUntil && !fired { return .max(1) }
            enqueueLocked(value)
            return nil
        }
        if let dropped { return dropped }
        drain()
        return .none
    }

    fileprivate func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        var finishedUpstream: Subscription?  // released after the lock
        let trigger: Subscription? = lock.withLock {
            finishedUpstream = upstream.take()
            guard finishLocked(completion) else { return nil }
            return self.trigger.take()
        }
        _ = finishedUpstream
        trigger?.cancel()
        drain()
    }

    fileprivate func triggerSubscribed(_ subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard !isTerminated, trigger == nil, !fired else { return false }
            trigger = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.max(1))
    }

    fileprivate func triggerFired() {
        let toCancel: [Subscription] = lock.withLock {
            guard !isTerminated, !fired else { return [] }
            fired = true
            let trigger = self.trigger
            self.trigger = nil
            guard gate == .prefixUntil else { return [trigger].compactMap { $0 } }
            let upstream = self.upstream
            self.upstream = nil
            finishLocked(.finished)
            return [trigger, upstream].compactMap { $0 }
        }
        for subscription in toCancel {
            subscription.cancel()
        }
        drain()
    }

    fileprivate func triggerCompleted(_ completion: Subscribers.Completion<Trigger.Failure>) {
        _ = lock.withLock { trigger.take() }  // released here, outside the lock
        guard case .failure(let error) = completion, let convert = convertTriggerFailure else { return }
        let first = lock.withLock { !fired && finishLocked(.failure(convert(error))) }
        if first { cancelUpstreams() }
        drain()
    }

    private struct UpstreamChild: Subscriber, CustomStringConvertible {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let owner: GatedSubscription
        let combineIdentifier = CombineIdentifier()
        var description: String { owner.description }

        func receive(subscription: Subscription) { owner.upstreamSubscribed(subscription) }
        func receive(_ input: Upstream.Output) -> Subscribers.Demand { owner.upstreamValue(input) }
        func receive(completion: Subscribers.Completion<Upstream.Failure>) { owner.upstreamCompleted(completion) }
    }

    private struct TriggerChild: Subscriber, CustomStringConvertible {
        typealias Input = Trigger.Output
        typealias Failure = Trigger.Failure

        let owner: GatedSubscription
        let combineIdentifier = CombineIdentifier()
        var description: String { owner.description }

        func receive(subscription: Subscription) { owner.triggerSubscribed(subscription) }

        func receive(_ input: Trigger.Output) -> Subscribers.Demand {
            owner.triggerFired()
            return .none
        }

        func receive(completion: Subscribers.Completion<Trigger.Failure>) { owner.triggerCompleted(completion) }
    }
}
