// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that hands each of its upstream's values, and its completion, to the
    /// subscriber through `scheduler`.
    ///
    /// Values and the completion are each handed to the scheduler as they arrive, so a serial
    /// scheduler delivers them in upstream's order. The subscription itself, requests and
    /// cancellation are not scheduled: they happen on the calling thread.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream

        /// Where values and the completion are delivered.
        public let scheduler: Context

        /// Options given to `scheduler` with each value or completion it is asked to deliver.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that delivers the values and completion of `upstream` on
        /// `scheduler`, with `options`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let scheduler = self.scheduler
            let options = self.options
            upstream.subscribe(
                ScheduledDelivery(downstream: subscriber, reflection: ReflectedAsReceiveOn.self) { action in
                    scheduler.schedule(options: options, action)
                })
        }
    }
}

extension Publisher {
    /// Delivers this publisher's values and completion to the subscriber on `scheduler`.
    ///
    /// ![A marble diagram of receive(on:options:), drawn from a run of it](marble-receive-on)
    ///
    /// Use it to do the subscriber's work on a particular thread or queue, such as updating
    /// a model on the main queue:
    ///
    /// ```swift
    /// service.results
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { self.items = $0 }
    /// ```
    ///
    /// Only values and the completion move to the scheduler; the thread that subscribes,
    /// requests or cancels is not changed (see ``subscribe(on:options:)`` for that).
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { print($0, Thread.isMainThread) }
    /// // Prints, once the main queue runs: 1 true, 2 true
    /// ```
    ///
    /// Each value and the completion is scheduled as it arrives, in the upstream's order,
    /// and delivered one at a time even on a concurrent scheduler. Requests go straight to
    /// the upstream: demand is passed through unchanged.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler on which the subscriber receives values and the
    ///     completion.
    ///   - options: Scheduler options that customize the delivery, passed to each
    ///     `schedule(options:_:)` call.
    /// - Returns: A ``Publishers/ReceiveOn`` publisher that delivers this publisher's events
    ///   on `scheduler`.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
