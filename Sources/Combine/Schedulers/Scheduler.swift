/// A protocol that provides a scheduler with an expression for relative time.
///
/// A scheduler's `SchedulerTimeType.Stride` conforms to this protocol, so a time interval can
/// be written the same way for every scheduler:
///
/// ```swift
/// publisher.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
/// publisher.delay(for: .seconds(1), scheduler: RunLoop.main)
/// ```
public protocol SchedulerTimeIntervalConvertible {
    /// Converts the specified number of seconds into an instance of this scheduler time type.
    static func seconds(_ s: Int) -> Self

    /// Converts the specified number of seconds, as a floating-point value, into an instance
    /// of this scheduler time type.
    static func seconds(_ s: Double) -> Self

    /// Converts the specified number of milliseconds into an instance of this scheduler time
    /// type.
    static func milliseconds(_ ms: Int) -> Self

    /// Converts the specified number of microseconds into an instance of this scheduler time
    /// type.
    static func microseconds(_ us: Int) -> Self

    /// Converts the specified number of nanoseconds into an instance of this scheduler time
    /// type.
    static func nanoseconds(_ ns: Int) -> Self
}

/// A protocol that defines when and how to execute a closure.
///
/// A scheduler runs actions as soon as possible, or after a date in its own time-keeping
/// system, its `SchedulerTimeType`. Operators such as ``Publisher/receive(on:options:)``,
/// ``Publisher/debounce(for:scheduler:options:)`` and ``Publisher/delay(for:tolerance:scheduler:options:)``
/// take a scheduler and perform their work on it.
///
/// `DispatchQueue`, `RunLoop` and `OperationQueue` are schedulers (with `import Combine`);
/// ``ImmediateScheduler`` runs every action at once, synchronously; `CombineTesting`'s
/// `TestScheduler` runs actions in virtual time that a test advances.
///
/// Thread safety is the scheduler's own: the actions given to a serial scheduler run one at
/// a time, in the order of their due dates (and for equal dates, of scheduling).
public protocol Scheduler<SchedulerTimeType> {
    /// Describes an instant in time for this scheduler.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// A type that defines options accepted by the scheduler.
    ///
    /// This type is freely definable by each scheduler; `Never` where a scheduler takes none.
    associatedtype SchedulerOptions

    /// This scheduler's definition of the current moment in time.
    var now: SchedulerTimeType { get }

    /// The minimum tolerance allowed by the scheduler.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Performs the action at the next possible opportunity.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// optionally taking into account tolerance if possible.
    ///
    /// - Returns: A cancellable that stops the repetition.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable
}

extension Scheduler {
    /// Performs the action at some time after the specified date, using the scheduler's
    /// minimum tolerance.
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Performs the action at the next possible opportunity, without options.
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Performs the action at some time after the specified date, using the specified
    /// tolerance.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// taking into account tolerance if possible.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// using minimum tolerance possible for this scheduler.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }
}
