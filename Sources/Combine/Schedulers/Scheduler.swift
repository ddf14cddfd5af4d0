// SPDX-License-Identifier: Apache-2.0
/// A type of time interval that can be built from a count of seconds or of a smaller unit.
///
/// A scheduler's `SchedulerTimeType.Stride` conforms to this protocol, so a time interval can
/// be written the same way for every scheduler:
///
/// ```swift
/// publisher.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
/// publisher.delay(for: .seconds(1), scheduler: RunLoop.main)
/// ```
public protocol SchedulerTimeIntervalConvertible {
    /// Returns the interval of `s` whole seconds.
    static func seconds(_ s: Int) -> Self

    /// Returns the interval of `s` seconds, fractions included.
    static func seconds(_ s: Double) -> Self

    /// Returns the interval of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self

    /// Returns the interval of `us` microseconds.
    static func microseconds(_ us: Int) -> Self

    /// Returns the interval of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}

/// A type that runs closures for publishers, either as soon as it can or once a given time has
/// come.
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
    /// The scheduler's own type of point in time; its `Stride` is the type of an interval.
    associatedtype SchedulerTimeType: Strideable where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// The extra settings the scheduler's `schedule` methods take.
    ///
    /// Each scheduler picks its own type; `Never` where a scheduler takes none.
    associatedtype SchedulerOptions

    /// The present instant, measured by this scheduler's clock.
    var now: SchedulerTimeType { get }

    /// The smallest tolerance this scheduler can honour for a timed action.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as the scheduler can.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Runs `action` once `date` has come, no later than `tolerance` after it when the
    /// scheduler can keep to that.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void)

    /// Runs `action` first once `date` has come, then again every `interval`, within
    /// `tolerance` when the scheduler can keep to it.
    ///
    /// - Returns: A cancellable that stops the repetition.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable
}

extension Scheduler {
    /// Runs `action` once `date` has come, with ``minimumTolerance`` and no options.
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Runs `action` as soon as the scheduler can, with no options.
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once `date` has come, within `tolerance`, with no options.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` once `date` has come and then every `interval`, within `tolerance`, with
    /// no options.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` once `date` has come and then every `interval`, with
    /// ``minimumTolerance`` and no options.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }
}
