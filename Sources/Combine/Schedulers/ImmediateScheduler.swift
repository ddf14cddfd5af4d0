/// A scheduler for performing synchronous actions.
///
/// Every action runs at once, on the calling thread, before `schedule` returns; dates are
/// ignored. A repeating action runs once.
///
/// ```swift
/// Just(1).receive(on: ImmediateScheduler.shared).sink { print($0) }   // prints 1 at once
/// ```
public struct ImmediateScheduler: Scheduler {
    /// The time type used by the immediate scheduler.
    ///
    /// Time never passes on an immediate scheduler: every instant is the same.
    public struct SchedulerTimeType: Strideable {
        /// The increment by which the immediate scheduler counts time.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double

            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int

            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval.
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given time interval.
            public init(_ value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from an integer seconds value.
            public init(integerLiteral value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from a floating-point seconds value.
            public init(floatLiteral value: Double) { magnitude = Int(value) }

            /// Creates an immediate scheduler time interval from a binary integer type, if it
            /// fits.
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

        /// Returns the distance to another immediate scheduler time; this is meaningless in
        /// the context of an immediate scheduler, and always zero.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// Advances the time by the specified amount; this is meaningless in the context of an
        /// immediate scheduler, and returns the same instant.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// The immediate scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    ///
    /// You cannot create instances of the immediate scheduler yourself. Use only the shared
    /// instance.
    // Immutable and empty; not `Sendable`, as Apple declares it.
    nonisolated(unsafe) public static let shared = ImmediateScheduler()

    private init() {}

    /// The immediate scheduler's definition of the current moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// The minimum tolerance allowed by the immediate scheduler.
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
