// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that hands each upstream element, and the completion, to its subscriber a
    /// fixed time after it arrived.
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
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// How long after its arrival each element or completion is delivered.
        public let interval: Context.SchedulerTimeType.Stride

        /// The tolerance given to the scheduler with each delayed delivery: how far from
        /// `interval` it may run the delivery, early or late.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler that runs the delayed deliveries.
        public let scheduler: Context

        /// Options passed to `scheduler` with each delayed delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers the upstream's elements and completion
        /// `interval` later on `scheduler`.
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
    /// Hands every element and the completion to the subscriber `interval` after it arrived,
    /// on `scheduler`.
    ///
    /// ![A marble diagram of delay(for:tolerance:scheduler:options:), drawn from a run of it](marble-delay)
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
    ///   - interval: How long after its arrival each element or completion is delivered.
    ///   - tolerance: How far from `interval` the scheduler may run a delivery; the scheduler's
    ///     `minimumTolerance` if `nil`.
    ///   - scheduler: The scheduler that runs the delayed deliveries.
    ///   - options: Options passed to `scheduler` with each delayed delivery.
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
