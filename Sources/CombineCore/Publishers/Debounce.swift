extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses
    /// between events.
    ///
    /// ```
    /// upstream (dueTime 2):  a-b-----cd-e-------|
    /// debounce:              ----b--------e-----|
    /// ```
    ///
    /// Each value restarts the wait; the latest value is delivered on `scheduler` once
    /// `dueTime` passes without another. It asks the upstream for unlimited values. A value
    /// that falls due while the subscriber has no outstanding demand is dropped. A completion
    /// is delivered on `scheduler` at its next turn — without the value still waiting, which
    /// is dropped, as Apple's Combine does.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context

        /// Scheduler options that customize this publisher’s delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval
        /// elapses between events.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            DebounceSubscription(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options)
                .attach(to: upstream)
        }
    }
}

/// The subscription of `debounce`: the latest value waits for a timer that each new value
/// restarts.
private final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>:
    ScheduledSubscription<Downstream.Input, Downstream, Context>, @unchecked Sendable
{
    private let dueTime: Stride
    /// The latest value, waiting for its quiet period to pass.
    private var pending: Downstream.Input?
    /// When the waiting value is due: the time of the latest value plus `dueTime`.
    private var deadline: Context.SchedulerTimeType?
    /// An action is scheduled on the scheduler (for `deadline`, or for an earlier deadline
    /// that a later value has since moved).
    private var armed = false

    init(downstream: Downstream, dueTime: Stride, scheduler: Context, options: Context.SchedulerOptions?) {
        self.dueTime = dueTime
        super.init(
            downstream: downstream, name: "Debounce", scheduler: scheduler, options: options,
            edges: ScheduledEdges(earlyCancel: .ignored, zeroDemand: .traps))
    }

    /// As Apple's: the subscriber, its outstanding demand and the value waiting.
    override var customMirror: Mirror {
        let (downstream, demand, pending) = lock.withLock { (self.downstream, self.demand, self.pending) }
        let none = Optional<Any>.none as Any
        return Mirror(
            self,
            children: [
                ("downstream", downstream.map { $0 as Any } ?? none), ("downstreamDemand", demand),
                ("currentValue", pending.map { $0 as Any } ?? none),
            ])
    }

    /// Apple's: the upstream is asked for everything after the subscriber has the subscription.
    override func didHandOff() {
        requestUpstream(.unlimited)
    }

    // Each value moves the deadline; it does not schedule an action of its own. One action at
    // a time is scheduled: when it runs before the (moved) deadline it schedules itself again
    // for it. A burst of values thus costs one or two scheduled actions rather than one per
    // value, and the value is delivered at the same time: `dueTime` after the latest value.
    override func upstreamValue(_ input: Downstream.Input) -> Subscribers.Demand {
        let due = scheduler.now.advanced(by: dueTime)
        var replaced: Downstream.Input?  // the value this one supersedes, released after the lock
        let arm: Bool = lock.withLock {
            guard isLiveLocked else { return false }
            replaced = pending
            pending = input
            deadline = due
            guard !armed else { return false }
            armed = true
            return true
        }
        _ = replaced
        if arm { schedule(for: due) }
        return .none
    }

    private func schedule(for due: Context.SchedulerTimeType) {
        scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) { [weak self] in
            self?.deadlinePassed()
        }
    }

    private func deadlinePassed() {
        let now = scheduler.now
        var due: Downstream.Input?  // released after the lock when the subscriber had no demand for it
        let later: Context.SchedulerTimeType?? = lock.withLock {
            guard pending != nil, !isTerminated, let deadline else {
                armed = false
                return nil
            }
            if now < deadline { return .some(deadline) }
            armed = false
            due = pending.take()
            if let due { enqueueWithinDemandLocked(due) }
            return .some(nil)
        }
        _ = due
        guard let later else { return }
        if let later {
            schedule(for: later)
        } else {
            drain()
        }
    }

    override func upstreamCompleted(_ completion: Completion) {
        _ = lock.withLock { pending.take() }  // released here, outside the lock
        completeOnScheduler(completion, options: nil)
    }
}

extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// ```
    /// upstream (dueTime 2):  a-b-----cd-e-------|
    /// debounce:              ----b--------e-----|
    /// ```
    ///
    /// ```swift
    /// searchField.textPublisher
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { query in search(query) }
    /// ```
    ///
    /// Values are delivered on `scheduler`. A value that falls due while the subscriber has
    /// no outstanding demand is dropped; when the upstream completes, a value still waiting
    /// is dropped and the completion is delivered on `scheduler`.
    ///
    /// - Parameters:
    ///   - dueTime: The time the publisher should wait before publishing an element.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher’s delivery of elements.
    /// - Returns: A publisher that publishes events only after a specified time elapses.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
