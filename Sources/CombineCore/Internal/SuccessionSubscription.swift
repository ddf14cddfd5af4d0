/// What follows the upstream's completion.
enum Succession<Next, Failure: Error> {
    /// Subscribe to the upstream again (`retry`); its completion comes back here.
    case resubscribe
    /// Continue with another publisher (`catch`, `append`); its completion is final.
    case switchTo(Next)
    /// Complete the subscriber.
    case complete(Subscribers.Completion<Failure>)
}

/// The one implementation behind `catch`, `tryCatch`, `retry` and `append`/`prepend`: it
/// stands between the subscriber and a succession of sources, one at a time, carrying the
/// subscriber's outstanding demand over to each new source.
final class SuccessionSubscription<Upstream: Publisher, Fallback: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Upstream.Output == Downstream.Input, Fallback.Output == Downstream.Input {
    private let lock = Lock()
    private let upstream: Upstream
    private var downstream: Downstream?
    /// Decides what follows an upstream completion; `attempt` counts the earlier ones.
    private let next:
        (_ completion: Subscribers.Completion<Upstream.Failure>, _ attempt: Int) -> Succession<
            Fallback, Downstream.Failure
        >
    private let convertFallbackFailure: (Fallback.Failure) -> Downstream.Failure
    private var source: Subscription?
    /// Bumped on every new source: events from an earlier source are stale.
    private var generation = 0
    private var attempts = 0
    private var demand = Subscribers.Demand.none
    let description: String

    init(
        upstream: Upstream, downstream: Downstream, name: String,
        convertFallbackFailure: @escaping (Fallback.Failure) -> Downstream.Failure,
        next: @escaping (Subscribers.Completion<Upstream.Failure>, Int) -> Succession<Fallback, Downstream.Failure>
    ) {
        self.upstream = upstream
        self.downstream = downstream
        self.description = name
        self.convertFallbackFailure = convertFallbackFailure
        self.next = next
    }

    var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }]) }

    /// Hands this subscription downstream and subscribes to the upstream.
    func start() {
        downstream?.receive(subscription: self)
        upstream.subscribe(Child<Upstream.Failure>(owner: self, generation: 0, recoverable: true))
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let source: Subscription? = lock.withLock {
            guard downstream != nil else { return nil }
            self.demand += demand
            return self.source
        }
        source?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let source = self.source.take()
        lock.release()
        source?.cancel()
        _ = downstream  // released here, outside the lock
    }

    fileprivate func receive(subscription: Subscription, generation: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard downstream != nil, generation == self.generation, source == nil else { return nil }
            source = subscription
            return self.demand
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func receive(_ value: Downstream.Input, generation: Int) -> Subscribers.Demand {
        let target: Downstream? = lock.withLock {
            guard generation == self.generation, let downstream else { return nil }
            demand -= 1
            return downstream
        }
        guard let target else { return .none }
        let more = target.receive(value)
        lock.withLock { demand += more }
        return more
    }

    fileprivate func finish(_ completion: Subscribers.Completion<Downstream.Failure>, generation: Int) {
        var source: Subscription?  // released after the lock
        let target: Downstream? = lock.withLock {
            guard generation == self.generation, let downstream else { return nil }
            self.downstream = nil
            source = self.source.take()
            return downstream
        }
        _ = source
        target?.receive(completion: completion)
    }

    fileprivate func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>, generation: Int) {
        let attempt: Int? = lock.withLock {
            guard generation == self.generation, downstream != nil else { return nil }
            defer { attempts += 1 }
            return attempts
        }
        guard let attempt else { return }
        let succession = next(completion, attempt)
        if case .complete(let completion) = succession {
            finish(completion, generation: generation)
            return
        }
        var finishedSource: Subscription?  // released after the lock
        let next: Int? = lock.withLock {
            guard generation == self.generation, downstream != nil else { return nil }
            self.generation += 1
            finishedSource = source.take()
            return self.generation
        }
        _ = finishedSource
        guard let next else { return }
        switch succession {
        case .resubscribe:
            upstream.subscribe(Child<Upstream.Failure>(owner: self, generation: next, recoverable: true))
        case .switchTo(let fallback):
            fallback.subscribe(Child<Fallback.Failure>(owner: self, generation: next, recoverable: false))
        case .complete:
            break
        }
    }

    /// Subscribes to the current source for the subscription's owner.
    private struct Child<Failure: Error>: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input

        let owner: SuccessionSubscription
        let generation: Int
        /// Whether this child subscribes to the upstream, whose completion goes to `next`.
        let recoverable: Bool
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        func receive(subscription: Subscription) {
            owner.receive(subscription: subscription, generation: generation)
        }

        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            owner.receive(input, generation: generation)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if recoverable, let completion = completion as? Subscribers.Completion<Upstream.Failure> {
                owner.upstreamCompleted(completion, generation: generation)
            } else if let completion = completion as? Subscribers.Completion<Fallback.Failure> {
                owner.finish(completion.mapError(owner.convertFallbackFailure), generation: generation)
            }
        }
    }
}
