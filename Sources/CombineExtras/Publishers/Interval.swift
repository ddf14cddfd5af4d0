// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publishers {
    /// A publisher that counts periods on a scheduler: 0, 1, 2, … one value every period while
    /// its subscriber has demand. Made by `Publishers.interval(_:tolerance:scheduler:options:)`.
    ///
    /// ```swift
    /// // period of 3 ticks:  ---0--1--2--3-…    (never completes)
    /// Publishers.interval(.seconds(1), scheduler: DispatchQueue.main)
    ///     .sink { print("tick", $0) }
    /// ```
    ///
    /// - Each subscriber gets its own repeating action, scheduled at subscription to run every
    ///   `period` (the first value comes one period after subscribing).
    /// - A tick that finds no demand is skipped, as with Foundation's `Timer` publisher; the
    ///   numbers count the values delivered, so they stay consecutive: a subscriber that asks
    ///   for one value at a time gets 0, 1, 2, … whatever the ticks it missed.
    /// - It never completes and never fails; cancelling (or releasing the subscription)
    ///   cancels the repeating action and lets go of the subscriber. A tick that arrives while
    ///   the previous value is still being delivered (a concurrent scheduler) is skipped.
    public struct Interval<Context: Scheduler>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Int
        /// This publisher never fails.
        public typealias Failure = Never

        /// The time between values.
        public let period: Context.SchedulerTimeType.Stride
        /// How late a value may come; `nil` for the scheduler's minimum tolerance.
        public let tolerance: Context.SchedulerTimeType.Stride?
        /// The scheduler that runs the repeating action.
        public let scheduler: Context
        /// Options for the repeating action.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher of 0, 1, 2, … one every `period` on `scheduler`.
        ///
        /// The period must be greater than zero: a repeating action with no period never lets
        /// time move on.
        public init(
            _ period: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            precondition(period > .zero, "Publishers.Interval: the period must be greater than zero")
            self.period = period
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            let subscription = IntervalSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start { [scheduler, period, tolerance, options] tick in
                scheduler.schedule(
                    after: scheduler.now.advanced(by: period), interval: period,
                    tolerance: tolerance ?? scheduler.minimumTolerance, options: options, tick)
            }
        }
    }

    /// A publisher of 0, 1, 2, … one every `period` on `scheduler` while its subscriber has
    /// demand; it never completes. See ``Publishers/Interval``.
    ///
    /// ![A marble diagram of interval(_:tolerance:scheduler:options:), drawn from a run of it](marble-interval)
    ///
    /// ```swift
    /// // period of 3 ticks: ---0--1--2-…
    /// Publishers.interval(.milliseconds(500), scheduler: DispatchQueue.main)
    /// ```
    ///
    /// - Parameters:
    ///   - period: The time between values; greater than zero.
    ///   - tolerance: How late a value may come; `nil` for the scheduler's minimum tolerance.
    ///   - scheduler: The scheduler that runs the repeating action.
    ///   - options: Options for the repeating action.
    /// - Returns: A publisher counting the periods.
    public static func interval<Context: Scheduler>(
        _ period: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride? = nil,
        scheduler: Context, options: Context.SchedulerOptions? = nil
    ) -> Interval<Context> {
        Interval(period, tolerance: tolerance, scheduler: scheduler, options: options)
    }
}

/// The subscription of ``Publishers/Interval``: a counter delivered by a repeating scheduler
/// action, which holds the subscription weakly.
private final class IntervalSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == Int, Downstream.Failure == Never {
    private let lock = Lock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var next = 0
    /// Who calls the subscriber now: a tick that finds a delivery under way (the scheduler
    /// running actions at once) is dropped, as one without demand is.
    private let delivery = SerialDelivery()
    private var repeating: Cancellable?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "Interval" }

    /// Schedules the repeating action with `schedule`, unless the subscriber already cancelled.
    func start(_ schedule: (@escaping () -> Void) -> Cancellable) {
        guard lock.withLock({ downstream != nil }) else { return }
        let repeating = schedule { [weak self] in self?.tick() }
        let cancelled: Bool = lock.withLock {
            guard downstream != nil else { return true }
            self.repeating = repeating
            return false
        }
        if cancelled { repeating.cancel() }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock {
            guard downstream != nil else { return }
            self.demand += demand
        }
    }

    func cancel() {
        let (downstream, repeating): (Downstream?, Cancellable?) = lock.withLock {
            defer {
                self.downstream = nil
                self.repeating = nil
            }
            return (self.downstream, self.repeating)
        }
        repeating?.cancel()
        withExtendedLifetime(downstream) {}  // released here, after the lock (its deinit may call back into this)
    }

    private func tick() {
        // A tick that finds a delivery under way is dropped, as one without demand is.
        _ = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: false,
            beginLocked: { _ -> (Downstream, Int)? in
                guard demand > 0, let downstream else { return nil }
                demand -= 1
                next += 1
                return (downstream, next - 1)
            },
            call: { downstream, value in downstream.receive(value) },
            endLocked: { more in if downstream != nil { demand += more } },
            next: { DeliveryStep<Never>.idle }, deliver: { _ in })
    }

    deinit {
        repeating?.cancel()
    }
}
