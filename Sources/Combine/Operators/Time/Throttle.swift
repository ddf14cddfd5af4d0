// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that delivers at most one upstream element per `interval`: of the elements
    /// that arrive while it waits, the newest or the oldest, as `latest` says.
    ///
    /// ```
    /// upstream (interval 4):  ab-c----d-ef----|
    /// latest: true            a---c---d---f---|
    /// latest: false           a---b---d---e---|
    /// ```
    ///
    /// A value arriving when nothing has been delivered for `interval` is delivered at the
    /// scheduler's next turn; values arriving sooner wait for the end of the interval, and only
    /// one of them — the latest or the first — is delivered then. Everything is delivered on
    /// `scheduler`. It asks the upstream for unlimited values. The subscriber's demand is
    /// reserved when a value is picked for delivery: a value arriving while the subscriber has
    /// no demand left beyond the reserved one is dropped. A completion is delivered after the
    /// value still waiting for its turn.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The shortest time between two deliveries, in the scheduler's time type.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which elements and the completion are delivered.
        public let scheduler: Context

        /// Which of the elements that arrive during one interval is delivered: the newest
        /// when `true`.
        ///
        /// When `false`, the oldest one is delivered and the others are discarded.
        public let latest: Bool

        /// Creates a publisher that delivers at most one upstream element per `interval`, the
        /// newest or the oldest of those waiting, on `scheduler`.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            ThrottleSubscription(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest)
                .subscribeUpstream(upstream)
        }
    }
}

/// The subscription of `throttle`: at most one value waits for its scheduled delivery, at the
/// earliest one interval after the previous delivery.
private final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>:
    TimedSubscription<Downstream.Input, Downstream, Context>, @unchecked Sendable
{
    private let interval: Stride
    private let latest: Bool
    /// The value picked for the scheduled delivery (its demand reserved).
    private var pending: Downstream.Input?
    /// A completion that waits for the scheduled delivery of `pending`.
    private var pendingCompletion: Completion?
    private var lastDelivery: Context.SchedulerTimeType?

    init(downstream: Downstream, interval: Stride, scheduler: Context, latest: Bool) {
        self.interval = interval
        self.latest = latest
        super.init(
            downstream: downstream, name: "Throttle", scheduler: scheduler, options: nil,
            edges: TimedEdges(earlyCancel: .final, zeroDemand: .ignored))
        // Apple's throttle reads the clock when it is made, when it is subscribed, for each
        // value and the completion while subscribed, and before delivering a value alone.
        _ = scheduler.now
    }

    override var customMirror: Mirror { Mirror(self, children: [:]) }

    override func willHandOff() {
        _ = scheduler.now
        requestUpstream(.unlimited)
    }

    override func upstreamValue(_ input: Downstream.Input) -> Subscribers.Demand {
        guard lock.withLock({ isLiveLocked }) else { return .none }
        let now = scheduler.now
        // The time to schedule a delivery at, if this value starts a new one.
        var replaced: Downstream.Input?  // the value this one supersedes, released after the lock
        let deliverAt: Context.SchedulerTimeType? = lock.withLock {
            guard isLiveLocked, unqueuedDemandLocked > (pending == nil ? 0 : 1) else { return nil }
            guard pending == nil else {
                if latest {
                    replaced = pending
                    pending = input
                }
                return nil
            }
            pending = input
            guard let lastDelivery else { return now }
            return max(now, lastDelivery.advanced(by: interval))
        }
        withExtendedLifetime(replaced) {}
        guard let deliverAt else { return .none }
        if deliverAt <= now {
            scheduler.schedule(options: nil) { [weak self] in self?.deliverPending() }
        } else {
            scheduler.schedule(after: deliverAt, tolerance: scheduler.minimumTolerance, options: nil) {
                [weak self] in self?.deliverPending()
            }
        }
        return .none
    }

    override func upstreamCompleted(_ completion: Completion) {
        _ = scheduler.now
        let waits: Bool = lock.withLock {
            guard pending != nil else { return false }
            pendingCompletion = completion
            return true
        }
        if !waits { completeOnScheduler(completion, options: nil) }
    }

    private func deliverPending() {
        // The clock is read only for a value that goes out alone, while subscribed (Apple's).
        let readsClock: Bool? = lock.withLock {
            guard !isTerminated, downstream != nil else { return nil }
            return pending != nil && pendingCompletion == nil
        }
        guard let readsClock else { return }
        let now = readsClock ? scheduler.now : nil
        let (value, completion): (Downstream.Input?, Completion?) = lock.withLock {
            defer {
                pending = nil
                pendingCompletion = nil
            }
            if pending != nil, let now { lastDelivery = now }
            return (pending, pendingCompletion)
        }
        emit(value, then: completion)
    }
}

extension Publisher {
    /// Limits delivery to one upstream element per `interval`, picking the newest or the oldest
    /// of the elements that arrived in the meantime.
    ///
    /// ![A marble diagram of throttle(for:scheduler:latest:), drawn from a run of it](marble-throttle)
    ///
    /// ```
    /// upstream (interval 4):  ab-c----d-ef----|
    /// latest: true            a---c---d---f---|
    /// latest: false           a---b---d---e---|
    /// ```
    ///
    /// ```swift
    /// scrollOffsets
    ///     .throttle(for: .milliseconds(100), scheduler: RunLoop.main, latest: true)
    ///     .sink { offset in updateHeader(offset) }
    /// // updateHeader runs at most once per 100 ms, with the latest offset
    /// ```
    ///
    /// The first value is delivered at the scheduler's next turn, later ones at most once per
    /// `interval`, all on `scheduler`. A value arriving while the subscriber has no demand
    /// left for it is dropped.
    ///
    /// - Parameters:
    ///   - interval: The shortest time between two deliveries, in the scheduler's time type.
    ///   - scheduler: The scheduler on which elements and the completion are delivered.
    ///   - latest: `true` to deliver the newest of the elements that arrived during an
    ///     interval; `false` to deliver the oldest and discard the rest.
    /// - Returns: A `Publishers.Throttle` publisher that delivers at most one element per
    ///   `interval`.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
