// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Every time the interval elapses on the scheduler, the elements gathered since the
        /// last array are sent as one array.
        case byTime(Context, Context.SchedulerTimeType.Stride)

        /// As `byTime`, but an array is also sent as soon as it holds the given number of
        /// elements, and the interval then starts again.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that gathers upstream elements and sends them as arrays on a timer, and, if
    /// its strategy has a count, whenever that many have arrived.
    ///
    /// ```
    /// upstream:                 ab-c--de-fgh----|
    /// .byTime(s, 4):            [a,b,c] at 4, [d,e] at 8, [f,g,h] at 12, then |
    /// .byTimeOrCount(s, 4, 2):  [a,b] at 1, [c] at 5, [d,e] at 7, [f,g] at 10, [h] at 14, then |
    /// ```
    ///
    /// A repeating timer, started at subscription, publishes what has been collected every
    /// `interval` (an empty collection publishes nothing); with `.byTimeOrCount` a full
    /// collection of `count` elements is scheduled for publishing on the scheduler at once
    /// (not published inside the upstream's send, as Apple's), and the timer starts again. A
    /// collection that falls due while the subscriber has no outstanding demand is dropped.
    /// When the upstream finishes, the partial collection is published before `.finished`;
    /// a failure drops it. Completions are delivered on the scheduler.
    ///
    /// Demand, as Apple's: with `.byTime` the upstream is asked for one element per request of
    /// the subscriber and one more after each element; with `.byTimeOrCount` a request for
    /// `n` collections asks the upstream for `count × n` elements.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Each element it sends is an array of upstream elements.
        public typealias Output = [Upstream.Output]
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// When an array is due: by time alone, or by time or count.
        public let strategy: Publishers.TimeGroupingStrategy<Context>

        /// `Scheduler` options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that groups the upstream's elements into arrays as `strategy`
        /// says.
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
            CollectByTimeSubscription<Upstream.Output, S, Context>(
                downstream: subscriber, strategy: strategy, options: options
            )
            .subscribeUpstream(upstream)
        }
    }
}

/// The subscription of `collect(_:options:)`: a buffer emptied by a repeating timer, or when
/// it holds `maxCount` elements.
private final class CollectByTimeSubscription<Element, Downstream: Subscriber, Context: Scheduler>:
    TimedSubscription<Element, Downstream, Context>, @unchecked Sendable
where Downstream.Input == [Element] {
    private let interval: Stride
    /// `nil` for `.byTime`.
    private let maxCount: Int?
    private var buffer: [Element] = []
    /// Groups filled by count, waiting for their scheduled action, oldest first.
    private var filled = RingQueue<[Element]>()

    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?)
    {
        let scheduler: Context
        switch strategy {
        case .byTime(let context, let stride):
            (scheduler, interval, maxCount) = (context, stride, nil)
        case .byTimeOrCount(let context, let stride, let count):
            (scheduler, interval, maxCount) = (context, stride, count)
        }
        super.init(
            downstream: downstream, name: "CollectByTime", scheduler: scheduler, options: options,
            edges: TimedEdges(earlyCancel: .final, zeroDemand: .traps))
    }

    override func didHandOff() {
        restartTimer(every: interval)
    }

    override func didRequest(_ demand: Subscribers.Demand) {
        requestUpstream(maxCount.map { demand * $0 } ?? .max(1))
    }

    override func didDeliver(_ additionalDemand: Subscribers.Demand) {
        guard let maxCount else { return }
        requestUpstream(additionalDemand * maxCount)
    }

    override func upstreamValue(_ input: Element) -> Subscribers.Demand {
        // `nil`: ignored; `true`: the value filled a group.
        let filledGroup: Bool? = lock.withLock {
            guard isLiveLocked else { return nil }
            buffer.append(input)
            guard let maxCount, buffer.count >= maxCount else { return false }
            var group: [Element] = []
            swap(&group, &buffer)
            filled.append(group)
            return true
        }
        guard let filledGroup else { return .none }
        if filledGroup {
            // As Apple's: a group filled by count is published on the scheduler, not inside
            // the upstream's send; the timer starts again from now.
            restartTimer(every: interval)
            scheduler.schedule(options: options) { [weak self] in
                self?.publishFilled()
            }
        }
        return maxCount == nil ? .max(1) : .none
    }

    /// Under the lock: queues the filled groups not yet published, oldest first, each if the
    /// subscriber still has demand for it. Returns whether one was queued; those without
    /// demand go to `dropped`, to be released after the lock.
    private func queueFilledLocked(dropped: inout [[Element]]) -> Bool {
        var queued = false
        while let group = filled.popFirst() {
            if enqueueWithinDemandLocked(group) { queued = true } else { dropped.append(group) }
        }
        return queued
    }

    /// The scheduled action of a group filled by count. It publishes every filled group still
    /// waiting, in the order they were filled, not the one that scheduled it: with several
    /// threads sending, the actions may reach the scheduler in another order than their
    /// groups were filled, and a timer's group must not overtake them either (issue 39).
    private func publishFilled() {
        var dropped: [[Element]] = []
        // Filled groups are owed until the completion goes out or the subscriber cancels, also
        // after the upstream has ended.
        let queued: Bool = lock.withLock { !isTerminated && queueFilledLocked(dropped: &dropped) }
        withExtendedLifetime(dropped) {}  // released here, outside the lock
        if queued { drain() }
    }

    override func timerFired(_ generation: Int) {
        var dropped: [[Element]] = []
        let queued: Bool = lock.withLock {
            guard isCurrentTimerLocked(generation), isLiveLocked else { return false }
            // Groups filled by count before the timer's own go first.
            if !buffer.isEmpty {
                var group: [Element] = []
                swap(&group, &buffer)
                filled.append(group)
            }
            return queueFilledLocked(dropped: &dropped)
        }
        withExtendedLifetime(dropped) {}  // released here, outside the lock
        if queued { drain() }
    }

    override func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let rest: [Element] = lock.withLock {
            defer { buffer = [] }
            return buffer
        }
        stopTimer()
        // Groups filled by count before the completion are published ahead of it.
        let output: [Element]? = if case .finished = completion, !rest.isEmpty { rest } else { nil }
        scheduler.schedule(options: options) { [weak self] in
            guard let self else { return }
            publishFilled()
            emit(output, then: completion)
        }
    }
}

extension Publisher {
    /// Gathers the upstream's elements and sends them as arrays, each when `strategy` says a
    /// group is due.
    ///
    /// ![A marble diagram of collect(_:options:), drawn from a run of it](marble-collect-byTime)
    ///
    /// ```
    /// upstream:                 ab-c--de-fgh----|
    /// .byTime(s, 4):            [a,b,c] at 4, [d,e] at 8, [f,g,h] at 12, then |
    /// .byTimeOrCount(s, 4, 2):  [a,b] at 1, [c] at 5, [d,e] at 7, [f,g] at 10, [h] at 14, then |
    /// ```
    ///
    /// ```swift
    /// events
    ///     .collect(.byTimeOrCount(DispatchQueue.main, .seconds(1), 100))
    ///     .sink { batch in upload(batch) }
    /// // upload receives the events of each second, or batches of 100 when they come faster
    /// ```
    ///
    /// If the upstream finishes, the elements collected so far are published before
    /// `.finished`; if it fails, they are dropped and the failure is forwarded.
    ///
    /// - Parameters:
    ///   - strategy: When to send a group: every interval on a scheduler (`.byTime`), or also
    ///     once it holds a given number of elements (`.byTimeOrCount`).
    ///   - options: Options for the scheduler that runs the timer and delivers the arrays.
    /// - Returns: A `Publishers.CollectByTime` publisher that sends the upstream's elements in
    ///   arrays.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}
