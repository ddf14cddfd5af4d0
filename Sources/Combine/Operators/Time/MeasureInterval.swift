// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that replaces each upstream element with the time elapsed since the one
    /// before it (or, for the first, since the subscription).
    ///
    /// ```
    /// upstream:         --a----b-c--|
    /// measureInterval:  --2----4-1--|      (strides of the scheduler's time type)
    /// ```
    ///
    /// The first interval is measured from the subscription. Time is read from the
    /// scheduler's `now`; nothing is scheduled on it.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// Each element it sends is a stride of the scheduler's time type.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The scheduler whose clock, `now`, gives the times.
        public let scheduler: Context

        /// Creates a publisher that sends, for each upstream element, the time since the
        /// previous one as read from `scheduler`.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Output {
            // As Apple's: the upstream's subscriber is the subscription, handed over once the
            // clock was read for the start; the demand returned for a value is asked of the
            // upstream at once.
            upstream.subscribe(
                RelaySubscription(
                    downstream: subscriber, step: MeasureIntervalStep<Upstream.Output, Context>(scheduler: scheduler)))
        }

    }
}

/// `measureInterval`'s step: the clock is read when the upstream's subscription arrives and
/// for each value, which becomes the time since the previous one (or since the start).
final class MeasureIntervalStep<Input, Context: Scheduler>: RelayStep, @unchecked Sendable {
    private let lock = Lock()
    private let scheduler: Context
    private var last: Context.SchedulerTimeType?

    init(scheduler: Context) {
        self.scheduler = scheduler
    }

    var name: String { "MeasureInterval" }

    func start() {
        let now = scheduler.now
        lock.withLock { last = now }
    }

    func relay(_ input: Input) -> Context.SchedulerTimeType.Stride {
        let now = scheduler.now
        let previous: Context.SchedulerTimeType = lock.withLock {
            defer { last = now }
            return last ?? now
        }
        return previous.distance(to: now)
    }
}

extension Publisher {
    /// Sends, for each upstream element, how much time passed since the previous one, read
    /// from the scheduler's clock.
    ///
    /// ![A marble diagram of measureInterval(using:options:), drawn from a run of it](marble-measureInterval)
    ///
    /// ```swift
    /// let cancellable = taps.measureInterval(using: DispatchQueue.main)
    ///     .sink { print("\($0.magnitude) ns since the last tap") }
    /// // Prints, for taps half a second apart: 500000000 ns since the last tap (roughly)
    /// ```
    ///
    /// The first interval is measured from the moment the upstream's subscription arrived;
    /// each later one from the previous value. Time is read from the scheduler's `now`, and
    /// nothing is scheduled on it: values are published on the thread that sends them.
    /// Demand passes through unchanged, and the completion is forwarded as it is.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler whose `now` gives the times.
    ///   - options: Options that customize the delivery of elements (unused: time is only
    ///     read from the scheduler).
    /// - Returns: A ``Publishers/MeasureInterval`` publisher that publishes, for each value,
    ///   the time since the previous one as a stride of the scheduler's time type.
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S>
    {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
