// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: a wall-clock `Date`.
    ///
    /// Its `distance(to:)` and `advanced(by:)` are in `DateSchedulerTime.swift`, generated
    /// with those of `OperationQueue.SchedulerTimeType`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Initializes a run loop scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval by which run loop times advance, in seconds.
        ///
        /// Integer and floating-point literals are seconds, both read as a `TimeInterval`:
        ///
        /// ```swift
        /// let delay: RunLoop.SchedulerTimeType.Stride = 2   // 2.0 seconds
        /// RunLoop.SchedulerTimeType.Stride.milliseconds(250).timeInterval   // 0.25
        /// ```
        ///
        /// Its initialisers from literals and integers, arithmetic, comparison and unit
        /// conversions are in `DateSchedulerTime.swift`, generated with those of
        /// `OperationQueue.SchedulerTimeType.Stride`.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {
            /// The type of a floating-point literal, a number of seconds.
            public typealias FloatLiteralType = TimeInterval

            /// The type of an integer literal, a number of seconds.
            public typealias IntegerLiteralType = TimeInterval

            /// The type of ``magnitude``: a number of seconds.
            public typealias Magnitude = TimeInterval

            /// The value of this time interval in seconds (negative for a span backwards).
            public var magnitude: TimeInterval

            /// Creates a run loop scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }
        }
    }

    /// Options that affect the operation of the run loop scheduler; the run loop takes none.
    public struct SchedulerOptions: Sendable {}

    /// The run loop scheduler's definition of the current moment in time: `Date()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// The minimum tolerance allowed by the run loop scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        0.0
    }

    /// Performs the action on this run loop's thread, the next time the run loop runs in the
    /// default mode.
    ///
    /// The action is a one-shot timer due now rather than a `perform` block: on Linux, adding
    /// a timer wakes a waiting run loop, while a block performed from another thread waits
    /// until something else wakes it.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        addOneShotTimer(at: Date(), tolerance: 0, action: SchedulerAction(action))
    }

    /// Performs the action on this run loop's thread once `date` has passed, when the run loop
    /// runs in the default mode.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        addOneShotTimer(at: date.date, tolerance: tolerance.timeInterval, action: SchedulerAction(action))
    }

    /// Performs the action on this run loop's thread from `date` on, every `interval`, when
    /// the run loop runs in the default mode, until the returned cancellable is cancelled or
    /// released.
    ///
    /// A repeating `Timer` in the run loop's default mode drives the repetition; cancelling
    /// invalidates it.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in action.run() }
        timer.tolerance = max(tolerance.timeInterval, 0)
        add(timer, forMode: .default)
        return AnyCancellable { timer.invalidate() }
    }

    private func addOneShotTimer(at date: Date, tolerance: TimeInterval, action: SchedulerAction) {
        let timer = Timer(fire: date, interval: 0, repeats: false) { _ in action.run() }
        timer.tolerance = max(tolerance, 0)
        add(timer, forMode: .default)
    }
}
#endif
