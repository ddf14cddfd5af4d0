import Dispatch
import Foundation
import Synchronization

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue: a wall-clock `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Initializes an operation queue scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        public init(_ date: Date) {
            self.date = date
        }

        /// Returns the distance to another operation queue scheduler time.
        ///
        /// - Parameter other: Another operation queue time.
        /// - Returns: The time interval between this time and the provided time, in seconds.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(other.date.timeIntervalSince(date))
        }

        /// Returns an operation queue scheduler time calculated by advancing this instance's time by the
        /// given interval.
        ///
        /// - Parameter n: A time interval to advance.
        /// - Returns: An operation queue time advanced by the given interval from this instance's time.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            SchedulerTimeType(date.addingTimeInterval(n.timeInterval))
        }

        /// The interval by which operation queue times advance, in seconds.
        ///
        /// Integer and floating-point literals are seconds, both read as a `TimeInterval`:
        ///
        /// ```swift
        /// let delay: OperationQueue.SchedulerTimeType.Stride = 2   // 2.0 seconds
        /// OperationQueue.SchedulerTimeType.Stride.milliseconds(250).timeInterval   // 0.25
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

            /// Creates an operation queue scheduler time interval from an integer seconds value.
            public init(integerLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates an operation queue scheduler time interval from a floating-point seconds value.
            public init(floatLiteral value: TimeInterval) {
                magnitude = value
            }

            /// Creates an operation queue scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }

            /// Creates an operation queue scheduler time interval from a binary integer type, a number
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

            /// Converts a number of seconds into an operation queue interval.
            public static func seconds(_ s: Int) -> Stride {
                Stride(TimeInterval(s))
            }

            /// Converts a number of seconds, as a `Double`, into an operation queue interval.
            public static func seconds(_ s: Double) -> Stride {
                Stride(s)
            }

            /// Converts a number of milliseconds into an operation queue interval.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(TimeInterval(ms) / 1_000)
            }

            /// Converts a number of microseconds into an operation queue interval.
            public static func microseconds(_ us: Int) -> Stride {
                Stride(TimeInterval(us) / 1_000_000)
            }

            /// Converts a number of nanoseconds into an operation queue interval.
            public static func nanoseconds(_ ns: Int) -> Stride {
                Stride(TimeInterval(ns) / 1_000_000_000)
            }
        }
    }

    /// Options that affect the operation of the operation queue scheduler; the queue takes none.
    public struct SchedulerOptions: Sendable {}

    /// The operation queue scheduler's definition of the current moment in time: `Date()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(Date())
    }

    /// The minimum tolerance allowed by the operation queue scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        SchedulerTimeType.Stride(0.0)
    }

    /// Adds an operation that performs the action to this queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = SchedulerAction(action)
        addOperation(BlockOperation { action.run() })
    }

    /// Adds an operation that performs the action to this queue once `date` has passed.
    ///
    /// Until then the action waits on a timer, outside the queue: it takes no place among the
    /// queue's operations and does not hold up `waitUntilAllOperationsAreFinished()`.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let action = SchedulerAction(action)
        OperationQueue.timing.asyncAfter(deadline: Self.deadline(for: date)) { [self] in
            addOperation(BlockOperation { action.run() })
        }
    }

    /// Adds an operation that performs the action to this queue from `date` on, every
    /// `interval`, until the returned cancellable is cancelled or released.
    ///
    /// A timer outside the queue adds one operation per tick; after cancellation no tick adds
    /// another, and an operation already added but not yet started does not perform the
    /// action. On a queue that runs operations concurrently, an action that outlasts the
    /// interval may overlap the next one.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(action)
        let cancelled = CancellationFlag()
        let timer = DispatchSource.makeTimerSource(queue: OperationQueue.timing)
        timer.schedule(
            deadline: Self.deadline(for: date), repeating: .nanoseconds(max(Self.nanoseconds(interval), 1)),
            leeway: .nanoseconds(max(Self.nanoseconds(tolerance), 0)))
        timer.setEventHandler { [self] in
            guard !cancelled.isSet else { return }
            addOperation(
                BlockOperation {
                    guard !cancelled.isSet else { return }
                    action.run()
                })
        }
        timer.resume()
        return AnyCancellable {
            cancelled.set()
            timer.cancel()
        }
    }

    /// The serial queue whose timers hold delayed actions until they are due.
    private static let timing = DispatchQueue(label: "swift-combine.OperationQueue.scheduler-timing")

    /// The monotonic-clock deadline at which the wall-clock `date` falls, as seen now.
    private static func deadline(for date: SchedulerTimeType) -> DispatchTime {
        .now() + .nanoseconds(nanoseconds(SchedulerTimeType.Stride(date.date.timeIntervalSinceNow)))
    }

    /// A number of nanoseconds for `stride`, saturating where it would not fit in an `Int`.
    private static func nanoseconds(_ stride: SchedulerTimeType.Stride) -> Int {
        let nanoseconds = (stride.timeInterval * 1_000_000_000).rounded()
        guard nanoseconds.isFinite, abs(nanoseconds) < Double(Int.max) else { return nanoseconds < 0 ? .min : .max }
        return Int(nanoseconds)
    }
}

/// Whether a repeating operation queue schedule has been cancelled, read by its timer and by
/// the operations it has already added.
private final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isSet: Bool { value.load(ordering: .acquiring) }

    func set() { value.store(true, ordering: .releasing) }
}
