extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream
    /// receiver.
    ///
    /// ```
    /// upstream:          -a-b----|
    /// delay(for: 2):     ---a-b----|
    /// ```
    ///
    /// Each value, and the completion (finished or failed), is delivered on the scheduler
    /// `interval` after it arrived. The subscription, requests and cancellation are not
    /// delayed.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride

        /// The allowed tolerance in delivering delayed events. The `Delay` publisher may
        /// deliver elements this much sooner or later than the interval specifies.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver the delayed events.
        public let scheduler: Context

        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the
        /// downstream receiver.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride, scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let (scheduler, interval, tolerance, options) = (
                self.scheduler, self.interval, self.tolerance, self.options
            )
            upstream.subscribe(
                ScheduledDelivery(downstream: subscriber, reflection: Unreflected.self) { action in
                    scheduler.schedule(
                        after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
                })
        }
    }
}

extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of
    /// time on a particular scheduler.
    ///
    /// Use it, for instance, to show a hint a second after each tap:
    /// `button.taps.delay(for: .seconds(1), scheduler: RunLoop.main).sink { showHint() }`.
    /// The completion is delayed as well, so it arrives after the last value.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .delay(for: .seconds(1), scheduler: DispatchQueue.main)
    ///     .sink { print($0) }
    /// // Prints, one second later: 1, 2
    /// ```
    ///
    /// Each value, and the completion (finished or failed), is scheduled on `scheduler` for
    /// `interval` after it arrived, and delivered in the upstream's order, one at a time.
    /// The subscription, requests and the cancel are not delayed: demand goes straight to
    /// the upstream.
    ///
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in firing delayed events; the scheduler's
    ///     `minimumTolerance` if `nil`.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler's behavior.
    /// - Returns: A ``Publishers/Delay`` publisher that delivers this publisher's values and
    ///   completion `interval` later, on `scheduler`.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}
