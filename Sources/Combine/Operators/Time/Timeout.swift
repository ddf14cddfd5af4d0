// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that ends the stream when the upstream lets `interval` pass without sending
    /// an element.
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
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// How long the upstream may stay silent, in the scheduler's time type, before the
        /// stream is ended.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler that runs the timer and delivers the elements and the completion.
        public let scheduler: Context

        /// Options passed to `scheduler` for the timer and the deliveries.
        public let options: Context.SchedulerOptions?

        /// Called when the time runs out; the error it returns ends the stream as its failure.
        /// When it is `nil`, a timeout ends the stream with `.finished`.
        public let customError: (() -> Publishers.Timeout<Upstream, Context>.Failure)?

        /// Creates a publisher that cancels the upstream and completes once `interval` passes
        /// without an upstream element.
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
            .subscribeUpstream(upstream)
        }
    }
}

/// The subscription of `timeout`: a timer that every upstream value restarts, and whose
/// firing ends the stream.
private final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>:
    TimedSubscription<Downstream.Input, Downstream, Context>, @unchecked Sendable
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
            edges: TimedEdges(earlyCancel: .ignored, zeroDemand: .forwardedUpstream, synchronousTimerTraps: true))
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
    /// Ends the stream, cancelling the upstream, when no element arrives from it within
    /// `interval`.
    ///
    /// ![A marble diagram of timeout(_:scheduler:options:customError:), drawn from a run of it](marble-timeout)
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
    ///   - interval: How long the upstream may stay silent, in the scheduler's time type,
    ///     before the stream is ended.
    ///   - scheduler: The scheduler that runs the timer and delivers the elements and the
    ///     completion.
    ///   - options: Options passed to `scheduler` for the timer and the deliveries.
    ///   - customError: Called when the time runs out; the error it returns is sent to the
    ///     subscriber as the failure. Without it, a timeout ends the stream with `.finished`.
    /// - Returns: A `Publishers.Timeout` publisher that ends the stream once `interval` passes
    ///   with no element from the upstream.
    public func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}
