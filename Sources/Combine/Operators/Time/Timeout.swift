import CombineSynchronization

extension Publishers {
    /// A publisher that terminates publishing if the upstream publisher exceeds a specified
    /// time interval without producing an element.
    ///
    /// ```
    /// upstream (interval 3):  -a-b-c-------
    /// timeout:                -a-b-c--|         (with customError: -a-b-c--X)
    /// ```
    ///
    /// The clock starts at subscription (and again at the subscriber's first request) and
    /// restarts with every value the upstream sends. When it runs out, the upstream is
    /// cancelled and the subscriber receives `.finished`, or the failure `customError`
    /// returns. Values and the upstream's completion are delivered on `scheduler`; the demand
    /// of the subscriber is passed to the upstream.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum time interval the publisher can go without emitting an element,
        /// expressed in the time system of the scheduler.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which to deliver events.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// A closure that executes if the publisher times out. The publisher sends the
        /// failure returned by this closure to the subscriber as the reason for termination.
        public let customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?

        /// Creates a publisher that terminates publishing if the upstream publisher exceeds
        /// the specified time interval without producing an element.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            TimeoutSubscription(
                downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
                customError: customError
            )
            .attach(to: upstream)
        }
    }
}

/// The subscription of `timeout`: a timer that every upstream value restarts, and whose
/// firing ends the stream.
private final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>:
    ScheduledSubscription<Downstream.Input, Downstream, Context>, @unchecked Sendable
{
    private let interval: Stride
    private let customError: (() -> Downstream.Failure)?
    private var requested = false
    private var timedOut = false

    init(
        downstream: Downstream, interval: Stride, scheduler: Context, options: Context.SchedulerOptions?,
        customError: (() -> Downstream.Failure)?
    ) {
        self.interval = interval
        self.customError = customError
        super.init(
            downstream: downstream, name: "Timeout", scheduler: scheduler, options: options,
            edges: ScheduledEdges(earlyCancel: .ignored, zeroDemand: .forwardedUpstream, synchronousTimerTraps: true))
    }

    override var customMirror: Mirror { Mirror(self, children: [:]) }

    /// Apple's: the clock starts before the subscriber is handed the subscription.
    override func willHandOff() {
        restartTimer(every: interval) { isLiveLocked }
    }

    override func didRequest(_ demand: Subscribers.Demand) {
        // Apple's Timeout starts its clock again at the first request.
        restartTimer(every: interval) {
            defer { requested = true }
            return !requested && isLiveLocked
        }
        requestUpstream(demand, evenIfNone: true)
    }

    override func didDeliver(_ additionalDemand: Subscribers.Demand) {
        requestUpstream(additionalDemand)
    }

    override func upstreamValue(_ input: Downstream.Input) -> Subscribers.Demand {
        guard restartTimer(every: interval, if: { isLiveLocked && !timedOut }) != nil else { return .none }
        scheduler.schedule(options: options) { [weak self] in self?.deliver(input) }
        return .none
    }

    override func upstreamCompleted(_ completion: Completion) {
        stopTimer()
        completeOnScheduler(completion, options: options)
    }

    override func timerFired(_ generation: Int) {
        let fired: Bool = lock.withLock {
            guard isCurrentTimerLocked(generation), isLiveLocked, !timedOut else { return false }
            timedOut = true
            return true
        }
        guard fired else { return }
        cancelUpstreams()
        emit(nil, then: customError.map { .failure($0()) } ?? .finished)
    }

    private func deliver(_ value: Downstream.Input) {
        let queued: Bool = lock.withLock {
            guard !timedOut else { return false }
            enqueueLocked(value)
            return true
        }
        if queued { drain() }
    }
}

extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval
    /// without producing an element.
    ///
    /// ```
    /// upstream (interval 3):  -a-b-c-------
    /// timeout:                -a-b-c--|         (with customError: -a-b-c--X)
    /// ```
    ///
    /// ```swift
    /// response
    ///     .timeout(.seconds(5), scheduler: DispatchQueue.main, customError: { .timedOut })
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints the response's values; if 5 seconds pass without one, the failure
    /// // `.timedOut` is printed and the response is cancelled
    /// ```
    ///
    /// The clock starts at subscription and restarts with every value; when it runs out the
    /// upstream is cancelled. Values and completions are delivered on `scheduler`.
    ///
    /// - Parameters:
    ///   - interval: The maximum time interval the publisher can go without emitting an
    ///     element, expressed in the time system of the scheduler.
    ///   - scheduler: The scheduler on which to deliver events.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: A closure that executes if the publisher times out. The publisher
    ///     sends the failure returned by this closure to the subscriber as the reason for
    ///     termination; without it, the publisher finishes normally.
    /// - Returns: A publisher that terminates if the specified interval elapses with no
    ///   events received from the upstream publisher.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
