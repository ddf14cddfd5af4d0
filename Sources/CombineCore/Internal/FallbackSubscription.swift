/// The one implementation behind `replaceError(with:)` and `replaceEmpty(with:)`: values
/// pass through; when the upstream completes, a fallback value may be published first —
/// as soon as the subscriber has demand for it — followed by the completion.
final class FallbackSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = UpstreamFailure
    typealias Ending = (fallback: Downstream.Input?, completion: Subscribers.Completion<Downstream.Failure>)

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var demand = Subscribers.Demand.none
    private var receivedValue = false
    private var held: Ending?
    /// Decides the ending from the upstream completion and whether any value came before it.
    private let ending: (Subscribers.Completion<UpstreamFailure>, _ receivedValue: Bool) -> Ending
    let description: String

    init(
        downstream: Downstream, name: String,
        ending: @escaping (Subscribers.Completion<UpstreamFailure>, Bool) -> Ending
    ) {
        self.downstream = downstream
        self.description = name
        self.ending = ending
    }

    var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }]) }

    func receive(subscription: Subscription) {
        let target: Downstream? = lock.withLock {
            guard upstream == nil, let downstream else { return nil }
            upstream = subscription
            return downstream
        }
        guard let target else {
            subscription.cancel()
            return
        }
        target.receive(subscription: self)
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        let target: Downstream? = lock.withLock {
            guard let downstream, held == nil else { return nil }
            receivedValue = true
            demand -= 1
            return downstream
        }
        guard let target else { return .none }
        let more = target.receive(input)
        lock.withLock { demand += more }
        return more
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        var finishedUpstream: Subscription?  // released after the lock
        let (target, ending): (Downstream?, Ending?) = lock.withLock {
            guard let downstream, held == nil else { return (nil, nil) }
            finishedUpstream = upstream.take()
            let ending = self.ending(completion, receivedValue)
            if ending.fallback != nil && demand == .none {
                held = ending
                return (nil, nil)
            }
            self.downstream = nil
            return (downstream, ending)
        }
        _ = finishedUpstream
        if let target, let ending { deliver(ending, to: target) }
    }

    private func deliver(_ ending: Ending, to target: Downstream) {
        if let fallback = ending.fallback { _ = target.receive(fallback) }
        target.receive(completion: ending.completion)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let (upstream, target, ending): (Subscription?, Downstream?, Ending?) = lock.withLock {
            guard let downstream else { return (nil, nil, nil) }
            self.demand += demand
            guard let held else { return (self.upstream, nil, nil) }
            self.held = nil
            self.downstream = nil
            return (nil, downstream, held)
        }
        if let target, let ending { deliver(ending, to: target) }
        upstream?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let upstream = self.upstream.take()
        let held = self.held.take()
        lock.release()
        upstream?.cancel()
        _ = downstream  // released here, outside the lock
        _ = held
    }
}
