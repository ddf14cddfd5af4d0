// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import Foundation

extension RunLoop: Scheduler {
    // The time type, the options, `now` and `minimumTolerance` are in DateSchedulerTime.swift,
    // generated with the operation queue's and the run loop's from one template.

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
