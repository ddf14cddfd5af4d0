// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publishers {
    /// A publisher that, when its upstream fails, waits for a trigger publisher made from the
    /// failure to publish and then subscribes to the upstream again, a limited number of times.
    /// Made by `retry(_:when:)`.
    ///
    /// ```
    /// upstream, 1st subscription:    --1--#
    /// trigger made from the failure:      ---t
    /// upstream, 2nd subscription:            --2--|
    /// output (1 retry):              --1-------2--|
    /// ```
    public struct RetryWhen<Upstream: Publisher, Trigger: Publisher>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to again after a failure.
        public let upstream: Upstream
        /// How many times to subscribe again at most.
        public let retries: Int
        /// Makes, from a failure, the publisher whose first value starts the next attempt.
        public let trigger: (Upstream.Failure) -> Trigger

        /// Creates a publisher that retries `upstream` up to `retries` times, each time once
        /// the publisher `trigger` makes from the failure has published a value.
        public init(upstream: Upstream, retries: Int, trigger: @escaping (Upstream.Failure) -> Trigger) {
            self.upstream = upstream
            self.retries = retries
            self.trigger = trigger
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = RetryWhenSubscription(
                upstream: upstream, retries: retries, makeTrigger: trigger, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.subscribeUpstream()
        }
    }
}

extension Publisher {
    /// Subscribes to the publisher again after a failure, up to `retries` times, each time
    /// once a trigger publisher made from the failure has published a value — to retry after
    /// a delay, when the network is back, or when the user taps "Retry".
    ///
    /// ![A marble diagram of retry(_:when:), drawn from a run of it](marble-retry-when)
    ///
    /// ```swift
    /// // upstream, 1st subscription:    --1--#
    /// // trigger made from the failure:      ---t
    /// // upstream, 2nd subscription:            --2--|
    /// // retry(1, when:):               --1-------2--|
    /// request.retry(3) { _ in Just(()).delay(for: .seconds(2), scheduler: queue) }
    /// ```
    ///
    /// - On a failure with retries left, `trigger` is called with it and the publisher it returns
    ///   is subscribed; its first value cancels it and starts a new subscription to the
    ///   upstream. If the trigger finishes without a value, or fails, the upstream's failure
    ///   is forwarded: the trigger decides when to retry, and can give up, but cannot hide the
    ///   error (its own failure, of an unrelated type, is not forwarded).
    /// - With no retries left (or `retries` zero or negative) the failure is forwarded at once.
    ///   A finish of the upstream is forwarded at once.
    /// - Demand the subscriber requested and did not use carries over to the next subscription
    ///   to the upstream, as with Apple's `retry(_:)`; the subscriber never gets more than it
    ///   asked for. Cancelling cancels the upstream or the waiting trigger.
    ///
    /// RxSwift's `retryWhen` and CombineExt's `retryWhen(_:)` hand the handler a stream of all
    /// the errors and end the sequence, without an error, when the handler's publisher
    /// finishes. This operator counts retries like Apple's `retry(_:)` and makes a fresh
    /// trigger per failure, which is what a delay, a back-off (the closure can count the
    /// failures it sees) or a reachability signal needs.
    ///
    /// - Parameters:
    ///   - retries: The most times to subscribe again.
    ///   - trigger: Makes, from a failure, the publisher whose first value starts the retry.
    /// - Returns: A publisher that retries the upstream when the trigger says so.
    public func retry<Trigger: Publisher>(
        _ retries: Int, when trigger: @escaping (Failure) -> Trigger
    ) -> Publishers.RetryWhen<Self, Trigger> {
        Publishers.RetryWhen(upstream: self, retries: retries, trigger: trigger)
    }
}

/// The subscription of `retry(_:when:)`: one attempt at a time — a subscription to the
/// upstream, or a trigger waiting to start the next one. Each attempt has a number, and events
/// of an earlier attempt are ignored. A trigger that fires synchronously, inside the
/// upstream's own failure, does not nest a new subscription in the old one's call: the retry
/// is handed to the loop already subscribing, so a run of synchronous failures does not grow
/// the stack.
private final class RetryWhenSubscription<Upstream: Publisher, Trigger: Publisher, Downstream: Subscriber>:
    Subscription, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Upstream?
    private var makeTrigger: ((Upstream.Failure) -> Trigger)?
    private var retriesLeft: Int
    private var demand = Subscribers.Demand.none
    private var upstreamSubscription: Subscription?
    private var triggerSubscription: Subscription?
    /// The number of the current attempt.
    private var attempt = 0
    /// The failure the current trigger is waiting on.
    private var waitingFailure: Upstream.Failure?
    /// A thread is in ``subscribeUpstream()``'s loop.
    private var subscribing = false
    /// A trigger fired while a thread was in that loop: it subscribes again.
    private var subscribeAgain = false

    init(
        upstream: Upstream, retries: Int, makeTrigger: @escaping (Upstream.Failure) -> Trigger,
        downstream: Downstream
    ) {
        self.upstream = upstream
        self.retriesLeft = retries
        self.makeTrigger = makeTrigger
        self.downstream = downstream
    }

    var description: String { "RetryWhen" }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let subscription: Subscription? = lock.withLock {
            guard downstream != nil else { return nil }
            self.demand += demand
            return upstreamSubscription
        }
        subscription?.request(demand)
    }

    func cancel() {
        lock.withLock { terminateLocked() }.cancelSubscriptions()
    }

    // MARK: Attempts

    /// Starts an attempt: subscribes to the upstream, again and again while triggers fire
    /// during the subscription.
    func subscribeUpstream() {
        let enter: Bool = lock.withLock {
            guard !subscribing else {
                subscribeAgain = true
                return false
            }
            subscribing = true
            return true
        }
        guard enter else { return }
        repeat {
            let next: (Upstream, Int)? = lock.withLock {
                guard downstream != nil, let upstream else { return nil }
                attempt += 1
                return (upstream, attempt)
            }
            if let (upstream, attempt) = next {
                upstream.subscribe(UpstreamSide(owner: self, attempt: attempt))
            }
        } while lock.withLock({
            defer { subscribeAgain = false }
            subscribing = subscribeAgain && downstream != nil
            return subscribing
        })
    }

    fileprivate func upstreamSubscribed(_ subscription: Subscription, attempt: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard downstream != nil, attempt == self.attempt, waitingFailure == nil, upstreamSubscription == nil
            else { return nil }
            upstreamSubscription = subscription
            return self.demand
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func upstreamValue(_ value: Upstream.Output, attempt: Int) -> Subscribers.Demand {
        guard let downstream = downstreamForValue(of: attempt) else { return .none }
        let more = downstream.receive(value)
        lock.withLock { if self.downstream != nil { demand += more } }
        return more
    }

    /// The subscriber, with one value counted against its demand, when `attempt` is current.
    private func downstreamForValue(of attempt: Int) -> Downstream? {
        lock.withLock {
            guard attempt == self.attempt, waitingFailure == nil else { return nil }
            if downstream != nil, demand > 0 { demand -= 1 }
            return downstream
        }
    }

    /// What an upstream completion leads to.
    private enum AfterCompletion {
        case ignore
        case forward(Downstream, Ending)
        case retry(Upstream.Failure, (Upstream.Failure) -> Trigger)
    }

    fileprivate func upstreamCompleted(_ completion: Subscribers.Completion<Upstream.Failure>, attempt: Int) {
        let next: AfterCompletion = lock.withLock {
            guard attempt == self.attempt, waitingFailure == nil, let downstream else { return .ignore }
            upstreamSubscription = nil
            if case .failure(let failure) = completion, retriesLeft > 0, let makeTrigger {
                retriesLeft -= 1
                waitingFailure = failure
                return .retry(failure, makeTrigger)
            }
            return .forward(downstream, terminateLocked())
        }
        switch next {
        case .ignore:
            return
        case .forward(let downstream, let ending):
            ending.cancelSubscriptions()
            downstream.receive(completion: completion)
        case .retry(let failure, let makeTrigger):
            makeTrigger(failure).subscribe(TriggerSide(owner: self, attempt: attempt))
        }
    }

    fileprivate func triggerSubscribed(_ subscription: Subscription, attempt: Int) {
        let accepted: Bool = lock.withLock {
            guard downstream != nil, attempt == self.attempt, waitingFailure != nil, triggerSubscription == nil
            else { return false }
            triggerSubscription = subscription
            return true
        }
        if accepted {
            subscription.request(.max(1))
        } else {
            subscription.cancel()
        }
    }

    fileprivate func triggerFired(attempt: Int) {
        let trigger: Subscription?? = lock.withLock {
            guard downstream != nil, attempt == self.attempt, waitingFailure != nil else { return nil }
            waitingFailure = nil
            defer { triggerSubscription = nil }
            return .some(triggerSubscription)
        }
        guard let trigger else { return }
        trigger?.cancel()
        subscribeUpstream()
    }

    fileprivate func triggerCompleted(attempt: Int) {
        let end: (Downstream, Upstream.Failure, Ending)? = lock.withLock {
            guard attempt == self.attempt, let failure = waitingFailure, let downstream else { return nil }
            triggerSubscription = nil
            return (downstream, failure, terminateLocked())
        }
        guard let (downstream, failure, ending) = end else { return }
        ending.cancelSubscriptions()
        downstream.receive(completion: .failure(failure))
    }

    /// What ending the subscription took from it, for the caller to cancel and release after
    /// the lock: the subscriber, the upstream and the trigger closure may hold anything, whose
    /// release may call back into this subscription.
    private struct Ending {
        let subscriptions: [Subscription]
        let released: (Downstream?, Upstream?, ((Upstream.Failure) -> Trigger)?)

        func cancelSubscriptions() {
            for subscription in subscriptions {
                subscription.cancel()
            }
        }
    }

    /// Ends the subscription once: lets go of the subscriber, the upstream and the trigger
    /// closure (and what they capture).
    /// - Returns: What was let go of, to cancel and release after the lock.
    private func terminateLocked() -> Ending {
        defer {
            downstream = nil
            upstream = nil
            makeTrigger = nil
            waitingFailure = nil
            upstreamSubscription = nil
            triggerSubscription = nil
        }
        return Ending(
            subscriptions: [upstreamSubscription, triggerSubscription].compactMap { $0 },
            released: (downstream, upstream, makeTrigger))
    }

    // MARK: Sides

    private struct UpstreamSide: Subscriber, CustomStringConvertible {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let owner: RetryWhenSubscription
        let attempt: Int
        let combineIdentifier = CombineIdentifier()

        var description: String { "RetryWhen" }

        func receive(subscription: Subscription) {
            owner.upstreamSubscribed(subscription, attempt: attempt)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            owner.upstreamValue(input, attempt: attempt)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            owner.upstreamCompleted(completion, attempt: attempt)
        }
    }

    private struct TriggerSide: Subscriber, CustomStringConvertible {
        typealias Input = Trigger.Output
        typealias Failure = Trigger.Failure

        let owner: RetryWhenSubscription
        let attempt: Int
        let combineIdentifier = CombineIdentifier()

        var description: String { "RetryWhen.Trigger" }

        func receive(subscription: Subscription) {
            owner.triggerSubscribed(subscription, attempt: attempt)
        }

        func receive(_ input: Trigger.Output) -> Subscribers.Demand {
            owner.triggerFired(attempt: attempt)
            return .none
        }

        func receive(completion: Subscribers.Completion<Trigger.Failure>) {
            owner.triggerCompleted(attempt: attempt)
        }
    }
}
