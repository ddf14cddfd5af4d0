// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The one implementation behind `replaceError(with:)` and `replaceEmpty(with:)`: values
/// pass through; when the upstream completes, a fallback value may be published first —
/// once the subscriber is ready for it — followed by the completion.
///
/// As Apple's: values and completions before the subscription are dropped, and a cancel
/// before it is ignored (the subscription that comes later is taken); the mirror has no
/// children. `rule` holds what differs between the two.
final class FallbackSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = UpstreamFailure
    typealias Ending = (fallback: Downstream.Input?, completion: Subscribers.Completion<Downstream.Failure>)

    /// What differs between Apple's two operators.
    enum Rule {
        /// `replaceError`: the subscriber's demand is counted, a value beyond it traps, and the
        /// fallback waits for demand.
        case countsDemand
        /// `replaceEmpty`: upstream is asked for everything once the subscription is handed
        /// on, values pass whatever the demand, and the fallback waits for the subscriber's
        /// first request.
        case asksForEverything
    }

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var subscribed = false
    private var demand = Subscribers.Demand.none
    private var requested = false
    private var receivedValue = false
    private var held: Ending?
    private let rule: Rule
    /// Decides the ending from the upstream completion and whether any value came before it.
    private let ending: (Subscribers.Completion<UpstreamFailure>, _ receivedValue: Bool) -> Ending
    let description: String

    init(
        downstream: Downstream, name: String, rule: Rule,
        ending: @escaping (Subscribers.Completion<UpstreamFailure>, Bool) -> Ending
    ) {
        self.downstream = downstream
        self.description = name
        self.rule = rule
        self.ending = ending
    }

    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        let target: Downstream? = lock.withLock {
            guard !subscribed, let downstream else { return nil }
            subscribed = true
            upstream = subscription
            return downstream
        }
        guard let target else {
            subscription.cancel()
            return
        }
        target.receive(subscription: self)
        if case .asksForEverything = rule { subscription.request(.unlimited) }
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.acquire()
        guard subscribed, let target = downstream, held == nil else {
            lock.release()
            return .none
        }
        receivedValue = true
        if case .countsDemand = rule {
            guard demand > 0 else {
                lock.release()
                apiViolation("\(description) received a value its subscriber did not request")
            }
            demand -= 1
        }
        lock.release()
        let more = target.receive(input)
        if case .countsDemand = rule, more > 0 { lock.withLock { demand += more } }
        return more
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        var finishedUpstream: Subscription?  // released after the lock
        let (target, ending): (Downstream?, Ending?) = lock.withLock {
            guard subscribed, let downstream, held == nil else { return (nil, nil) }
            finishedUpstream = upstream.take()
            let ending = self.ending(completion, receivedValue)
            if ending.fallback != nil && !isReady {
                held = ending
                return (nil, nil)
            }
            self.downstream = nil
            return (downstream, ending)
        }
        withExtendedLifetime(finishedUpstream) {}
        if let target, let ending { deliver(ending, to: target) }
    }

    /// Whether the subscriber is ready for the fallback; called with the lock held.
    private var isReady: Bool {
        switch rule {
        case .countsDemand: demand > 0
        case .asksForEverything: requested
        }
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
            requested = true
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
        guard subscribed else {
            // Apple's ignore a cancel before the subscription.
            lock.release()
            return
        }
        let downstream = self.downstream.take()
        let upstream = self.upstream.take()
        let held = self.held.take()
        lock.release()
        upstream?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
        withExtendedLifetime(held) {}
    }
}
