// SPDX-License-Identifier: Apache-2.0
/// A scheduler that runs each action synchronously, the moment it is scheduled.
///
/// Every action runs at once, on the calling thread, before `schedule` returns; dates are
/// ignored. A repeating action runs once.
///
/// ```swift
/// Just(1).receive(on: ImmediateScheduler.shared).sink { print($0) }   // prints 1 at once
/// ```
public struct ImmediateScheduler: Scheduler {
    /// The immediate scheduler's instant type, which carries no information.
    ///
    /// Time never passes on an immediate scheduler: every instant is the same.
    public struct SchedulerTimeType: Strideable {
        /// An interval for the immediate scheduler: a plain integer, which the scheduler
        /// ignores.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible
        {
            /// A floating-point literal is read as a `Double`.
            public typealias FloatLiteralType = Double

            /// An integer literal is read as an `Int`.
            public typealias IntegerLiteralType = Int

            /// The stride's magnitude is an `Int`.
            public typealias Magnitude = Int

            /// The value of this time interval.
            public var magnitude: Int

            /// Creates a stride whose magnitude is `value`.
            public init(_ value: Int) { magnitude = value }

            /// Creates a stride from an integer literal, whose value becomes the magnitude.
            public init(integerLiteral value: Int) { magnitude = value }

            /// Creates a stride from a floating-point literal, truncated to an integer magnitude.
            public init(floatLiteral value: Double) { magnitude = Int(value) }

            /// Creates a stride from any binary integer, or returns `nil` when the value doesn't
            /// fit in an `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Returns whether the first stride is shorter than the second.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// Returns the sum of two strides.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// Returns the difference of two strides.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// Returns the product of two strides.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// Adds the second stride to the first.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            /// Subtracts the second stride from the first.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
            /// Multiplies the first stride by the second.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

            // Time means nothing to the immediate scheduler: as Apple's, every unit converts to
            // a zero stride (`.seconds(1100) == 0`).
            /// Returns a zero stride, whatever the number of seconds: the immediate scheduler
            /// does not measure time.
            public static func seconds(_ s: Int) -> Stride { Stride(0) }
            /// Returns a zero stride, whatever the number of seconds: the immediate scheduler
            /// does not measure time.
            public static func seconds(_ s: Double) -> Stride { Stride(0) }
            /// Returns a zero stride, whatever the number of milliseconds: the immediate
            /// scheduler does not measure time.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(0) }
            /// Returns a zero stride, whatever the number of microseconds: the immediate
            /// scheduler does not measure time.
            public static func microseconds(_ us: Int) -> Stride { Stride(0) }
            /// Returns a zero stride, whatever the number of nanoseconds: the immediate
            /// scheduler does not measure time.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(0) }
        }

        /// Returns a zero stride: all instants of the immediate scheduler are the same.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// Returns this same instant, whatever `n` is: time doesn't move on the immediate
        /// scheduler.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// The immediate scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The one immediate scheduler.
    ///
    /// The initializer is private, so this instance is the only way to reach the scheduler.
    // Immutable and empty; not `Sendable`, as Apple declares it.
    nonisolated(unsafe) public static let shared = ImmediateScheduler()

    private init() {}

    /// The present instant, the same as every other instant of this scheduler.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// A zero stride: actions never run late on this scheduler.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Performs the action at once.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Performs the action at once; the immediate scheduler ignores `date`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Performs the action once, at once; the immediate scheduler ignores `date` and
    /// `interval`.
    ///
    /// - Parameters:
    ///   - date: The time of the first run; ignored.
    ///   - interval: The time between runs; ignored, since the action runs only once.
    ///   - tolerance: The allowed lateness; ignored.
    ///   - options: Scheduler options; the immediate scheduler takes none.
    ///   - action: The closure to run.
    /// - Returns: A cancellable with nothing left to cancel: `Subscriptions.empty`, as Apple's
    ///   (it describes itself as "Empty").
    @discardableResult
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return Subscriptions.empty
    }
}
