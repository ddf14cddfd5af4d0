import Foundation

extension RunLoop: Scheduler {
    /// The scheduler time type used by the run loop: a wall-clock `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Initializes a run loop scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        public init(_ date: Date) {
            self.date = date
        }

        /// Returns the distance to another run loop scheduler time.
        ///
        /// - Parameter other: Another run loop time.
        /// - Returns: The time interval between this time and the provided time, in seconds.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// Returns a run loop scheduler time calculated by advancing this instance's time by the
        /// given interval.
        ///
        /// - Parameter n: A time interval to advance.
        /// - Returns: A run loop time advanced by the given interval from this instance's time.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// The interval by which run loop times advance, in seconds.
        ///
        /// Integer and floating-point literals are seconds, both read as a `TimeInterval`:
        ///
        /// ```swift
        /// let delay: RunLoop.SchedulerTimeType.Stride = 2   // 2.0 seconds
        /// RunLoop.SchedulerTimeType.Stride.milliseconds(250).timeInterval   // 0.25
        /// ```
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

            /// The value of this time interval in seconds.
            public var timeInterval: TimeInterval {
                magnitude
            }

            /// Creates a run loop scheduler time interval from an integer seconds value.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates a run loop scheduler time interval from a floating-point seconds value.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates a run loop scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// Creates a run loop scheduler time interval from a binary integer type, a number
            /// of seconds; `nil` if a `TimeInterval` cannot represent it exactly.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = TimeInterval(exactly: source) else { return nil }
                magnitude = seconds
            }

            /// Returns a Boolean value that tells whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool {
                lhs.magnitude < rhs.magnitude
            }

            /// Multiplies the second counts of two intervals: `.seconds(2) * 3` is 6 seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(lhs.timeInterval * rhs.timeInterval)
            }

            /// Adds two intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(lhs.magnitude + rhs.magnitude)
            }

            /// Subtracts one interval from another.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(lhs.magnitude - rhs.magnitude)
            }

            /// Multiplies `lhs` by `rhs` in place.
            public static func *= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs * rhs
            }

            /// Adds `rhs` to `lhs` in place.
            public static func += (lhs: inout Stride, rhs: Stride) {
                lhs = lhs + rhs
            }

            /// Subtracts `rhs` from `lhs` in place.
            public static func -= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs - rhs
            }

            /// Converts a number of seconds into a run loop interval.
            public static func seconds(_ s: Int) -> Stride {
                Stride(TimeInterval(s))
            }

            /// Converts a number of seconds, as a `Double`, into a run loop interval.
            public static func seconds(_ s: Double) -> Stride {
                Stride(s)
            }

            /// Converts a number of milliseconds into a run loop interval.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(TimeInterval(ms) / 1_000)
            }

            /// Converts a number of microseconds into a run loop interval.
            public static func microseconds(_ us: Int) -> Stride {
                Stride(TimeInterval(us) / 1_000_000)
            }

            /// Converts a number of nanoseconds into a run loop interval.
            public static func nanoseconds(_ ns: Int) -> Stride {
                Stride(TimeInterval(ns) / 1_000_000_000)
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
