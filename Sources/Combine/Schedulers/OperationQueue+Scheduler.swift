import Dispatch
import Foundation
import Synchronization

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue: a wall-clock `Date`.
    ///
    /// Its `distance(to:)` and `advanced(by:)` come from `_DateSchedulerTime`, which it shares
    /// with `RunLoop.SchedulerTimeType`.
    public struct SchedulerTimeType: _DateSchedulerTime, Strideable, Codable, Hashable, Sendable {
        /// The date represented by this type.
        public var date: Date

        /// Initializes an operation queue scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        public init(_ date: Date) {
            self.date = date
        }

        /// The interval by which operation queue times advance, in seconds.
        ///
        /// Integer and floating-point literals are seconds, both read as a `TimeInterval`:
        ///
        /// ```swift
        /// let delay: OperationQueue.SchedulerTimeType.Stride = 2   // 2.0 seconds
        /// OperationQueue.SchedulerTimeType.Stride.milliseconds(250).timeInterval   // 0.25
        /// ```
        ///
        /// Its initialisers from literals and integers, arithmetic, comparison and unit
        /// conversions come from `_SecondsSchedulerStride`, which it shares with
        /// `RunLoop.SchedulerTimeType.Stride`.
        public struct Stride: _SecondsSchedulerStride, ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
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

            /// Creates an operation queue scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
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
        addOperation(BlockOperation(block: SchedulerAction(action).sendable))
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
