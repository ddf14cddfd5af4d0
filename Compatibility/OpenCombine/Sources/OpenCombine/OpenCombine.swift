// SPDX-License-Identifier: Apache-2.0
// `import OpenCombine` brings swift-combine's `Combine`: its types keep their names (`Combine.Just`,
// not `OpenCombine.Just`), and `OpenCombine.Just` still resolves, through the re-export.
@_exported import Combine

/// The scheduler behind the `ocombine` properties of `DispatchQueue`, `RunLoop` and
/// `OperationQueue` (code written for OpenCombine uses them to name the Combine scheduler of a
/// queue or run loop).
///
/// It hands every call to the wrapped scheduler, and uses the wrapped scheduler's time and
/// option types, so `DispatchQueue.main.ocombine` and `DispatchQueue.main` schedule the same way
/// and their times can be mixed.
public struct OCombineScheduler<Base: Scheduler>: Scheduler {
    public typealias SchedulerTimeType = Base.SchedulerTimeType
    public typealias SchedulerOptions = Base.SchedulerOptions

    /// The scheduler this one hands its calls to.
    public let base: Base

    /// Makes a scheduler that hands its calls to `base`.
    public init(_ base: Base) {
        self.base = base
    }

    public var now: SchedulerTimeType { base.now }

    public var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

extension OCombineScheduler: Sendable where Base: Sendable {}

/// A scheduler that code written for OpenCombine reaches as `scheduler.ocombine`, of type
/// `Scheduler.OCombine` (`DispatchQueue`, `RunLoop` and `OperationQueue` conform, in
/// `OpenCombineDispatch` and `OpenCombineFoundation`).
public protocol OCombineSchedulerProviding: Scheduler {}

extension OCombineSchedulerProviding {
    /// This scheduler under the name code written for OpenCombine uses.
    public typealias OCombine = OCombineScheduler<Self>

    /// This scheduler, for code written as `queue.ocombine`; it schedules exactly as `self` does.
    public var ocombine: OCombine { OCombine(self) }
}
