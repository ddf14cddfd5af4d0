/// The one implementation behind `flatMap` and `switchToLatest`: each upstream value
/// becomes an inner publisher whose values go downstream, within the subscriber's demand.
///
/// - `flatMap(maxPublishers:)` asks upstream for `maxPublishers` values and keeps that many
///   inner publishers at once, asking for one more upstream value each time one finishes.
/// - `switchToLatest` asks upstream for everything and keeps only the newest inner
///   publisher, cancelling the previous one.
///
/// A new inner subscription is asked for the subscriber's outstanding demand; later requests
/// go to every inner subscription. It finishes when the upstream and every inner publisher
/// have finished, and fails (cancelling everything) as soon as any of them fails.
final class FlatMapSubscription<Upstream: Publisher, Inner: Publisher, Downstream: Subscriber>: FanIn<Downstream>,
    @unchecked Sendable
where
    Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure,
    Upstream.Failure == Downstream.Failure
{
    private let transform: (Upstream.Output) -> Inner
    private let maxPublishers: Subscribers.Demand
    private let switching: Bool
    private var outer: Subscription?
    private var outerFinished = false
    /// The live inner publishers by id; `nil` until an inner subscription has arrived.
    private var inners: [Int: Subscription?] = [:]
    private var nextID = 0

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
    func subscribe(to upstream: Upstream) {
        start()
        upstream.subscribe(OuterChild(owner: self))
    }

    override func didRequest(_ demand: Subscribers.Demand) {
        let inners: [Subscription] = lock.withLock { self.inners.values.compactMap { $0 } }
        for inner in inners {
            inner.request(demand)
        }
    }

    override func cancelUpstreams() {
        let all: [Subscription] = lock.withLock {
            defer {
                outer = nil
                inners = [:]
            }
            return [outer].compactMap { $0 } + inners.values.compactMap { $0 }
        }
        for subscription in all {
            subscription.cancel()
        }
    }

    // MARK: The upstream

    fileprivate func receiveOuter(subscription: Subscription) {
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

    fileprivate func receiveOuter(_ value: Upstream.Output) {
        let inner = transform(value)
        let started: (id: Int, replaced: Subscription?)? = lock.withLock {
            guard !isTerminated else { return nil }
            let id = nextID
            nextID += 1
            var replaced: Subscription?
            if switching {
                replaced = inners.values.compactMap { $0 }.first
                inners = [:]
            }
            inners[id] = .some(nil)
            return (id, replaced)
        }
        guard let started else { return }
        started.replaced?.cancel()
        inner.subscribe(InnerChild(owner: self, id: started.id))
    }

    fileprivate func receiveOuter(completion: Subscribers.Completion<Downstream.Failure>) {
        if case .failure = completion {
            fail(completion)
            return
        }
        lock.withLock {
            outer = nil
            outerFinished = true
            if inners.isEmpty { finishLocked(.finished) }
        }
        drain()
    }

    // MARK: The inner publishers

    fileprivate func receiveInner(subscription: Subscription, id: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, let slot = inners[id], slot == nil else { return nil }
            inners[id] = subscription
            return unqueuedDemandLocked
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func receiveInner(_ value: Downstream.Input, id: Int) {
        let live: Bool = lock.withLock {
            guard inners[id] != nil else { return false }
            enqueueLocked(value)
            return true
        }
        if live { drain() }
    }

    fileprivate func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, id: Int) {
        if case .failure = completion {
            let live = lock.withLock { inners[id] != nil }
            if live { fail(completion) }
            return
        }
        let askForAnother: Subscription? = lock.withLock {
            guard inners.removeValue(forKey: id) != nil else { return nil }
            if outerFinished && inners.isEmpty { finishLocked(.finished) }
            return switching || maxPublishers == .unlimited ? nil : outer
        }
        askForAnother?.request(.max(1))
        drain()
    }

    private func fail(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let first = lock.withLock { finishLocked(completion) }
        if first { cancelUpstreams() }
        drain()
    }

    private struct OuterChild: Subscriber, CustomStringConvertible {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let owner: FlatMapSubscription
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        func receive(subscription: Subscription) {
            owner.receiveOuter(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            owner.receiveOuter(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            owner.receiveOuter(completion: completion)
        }
    }

    private struct InnerChild: Subscriber, CustomStringConvertible {
        typealias Input = Inner.Output
        typealias Failure = Inner.Failure

        let owner: FlatMapSubscription
        let id: Int
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        func receive(subscription: Subscription) {
            owner.receiveInner(subscription: subscription, id: id)
        }

        func receive(_ input: Inner.Output) -> Subscribers.Demand {
            owner.receiveInner(input, id: id)
            return .none
        }

        func receive(completion: Subscribers.Completion<Inner.Failure>) {
            owner.receiveInner(completion: completion, id: id)
        }
    }
}
