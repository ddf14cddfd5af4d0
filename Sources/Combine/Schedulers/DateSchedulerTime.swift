// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import Foundation

/// A scheduler time that is a wall-clock `Date`, advanced by strides counted in seconds.
///
/// This is an implementation detail shared by `RunLoop.SchedulerTimeType` and
/// `OperationQueue.SchedulerTimeType`, which Apple's Combine declares as distinct types: it
/// gives both the same `distance(to:)` and `advanced(by:)`. It is not meant to be used
/// directly; name the scheduler's own `SchedulerTimeType` instead.
public protocol _DateSchedulerTime: Strideable where Stride: _SecondsSchedulerStride {
    /// The date represented by this time.
    var date: Date { get }

    /// Creates a scheduler time that represents the given date.
    ///
    /// - Parameter date: The date to represent.
    init(_ date: Date)
}

extension _DateSchedulerTime {
    /// Returns the distance to another scheduler time.
    ///
    /// - Parameter other: Another scheduler time of the same type.
    /// - Returns: The time interval between this time and the provided time, in seconds.
    @inlinable
    public func distance(to other: Self) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }

    /// Returns a scheduler time calculated by advancing this instance's time by the given
    /// interval.
    ///
    /// - Parameter n: A time interval to advance.
    /// - Returns: A scheduler time advanced by the given interval from this instance's time.
    @inlinable
    public func advanced(by n: Stride) -> Self {
        Self(date.addingTimeInterval(n.timeInterval))
    }
}

/// A scheduler time interval counted in seconds, as a `TimeInterval`.
///
/// This is an implementation detail shared by `RunLoop.SchedulerTimeType.Stride` and
/// `OperationQueue.SchedulerTimeType.Stride`, which Apple's Combine declares as distinct
/// types: it gives both the same literal and integer initialisers, arithmetic, comparison
/// and unit conversions. It is not meant to be used directly; name the scheduler's own
/// `SchedulerTimeType.Stride` instead.
public protocol _SecondsSchedulerStride: ExpressibleByFloatLiteral, Comparable, SignedNumeric,
    SchedulerTimeIntervalConvertible
where FloatLiteralType == TimeInterval, IntegerLiteralType == TimeInterval, Magnitude == TimeInterval {
    /// Creates a scheduler time interval from the given time interval.
    ///
    /// - Parameter timeInterval: A number of seconds.
    init(_ timeInterval: TimeInterval)
}

extension _SecondsSchedulerStride {
    /// The value of this time interval in seconds.
    @inlinable
    public var timeInterval: TimeInterval {
        magnitude
    }

    /// Creates a scheduler time interval from an integer seconds value.
    @inlinable
    public init(integerLiteral value: TimeInterval) {
        self.init(value)
    }

    /// Creates a scheduler time interval from a floating-point seconds value.
    @inlinable
    public init(floatLiteral value: TimeInterval) {
        self.init(value)
    }

    /// Creates a scheduler time interval from a binary integer type, a number of seconds;
    /// `nil` if a `TimeInterval` cannot represent it exactly.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let seconds = TimeInterval(exactly: source) else { return nil }
        self.init(seconds)
    }

    /// Returns a Boolean value that tells whether `lhs` is shorter than `rhs`.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.magnitude < rhs.magnitude
    }

    /// Multiplies the second counts of two intervals: `.seconds(2) * 3` is 6 seconds.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {
        Self(lhs.timeInterval * rhs.timeInterval)
    }

    /// Adds two intervals.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self {
        Self(lhs.magnitude + rhs.magnitude)
    }

    /// Subtracts one interval from another.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self {
        Self(lhs.magnitude - rhs.magnitude)
    }

    /// Multiplies `lhs` by `rhs` in place.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Self) {
        lhs = lhs * rhs
    }

    /// Adds `rhs` to `lhs` in place.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) {
        lhs = lhs + rhs
    }

    /// Subtracts `rhs` from `lhs` in place.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) {
        lhs = lhs - rhs
    }

    /// Converts a number of seconds into a scheduler time interval.
    @inlinable
    public static func seconds(_ s: Int) -> Self {
        Self(TimeInterval(s))
    }

    /// Converts a number of seconds, as a `Double`, into a scheduler time interval.
    @inlinable
    public static func seconds(_ s: Double) -> Self {
        Self(s)
    }

    /// Converts a number of milliseconds into a scheduler time interval.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Self {
        Self(TimeInterval(ms) / 1_000)
    }

    /// Converts a number of microseconds into a scheduler time interval.
    @inlinable
    public static func microseconds(_ us: Int) -> Self {
        Self(TimeInterval(us) / 1_000_000)
    }

    /// Converts a number of nanoseconds into a scheduler time interval.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Self {
        Self(TimeInterval(ns) / 1_000_000_000)
    }
}
#endif
