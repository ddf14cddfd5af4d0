// SPDX-License-Identifier: Apache-2.0
/// A scheduler action carried across to the thread that performs it.
///
/// `Scheduler`'s methods take a plain `() -> Void` (Apple's protocol predates `Sendable`), while
/// Dispatch, `RunLoop`, `Timer` and `OperationQueue` want `@Sendable` closures. Handing the
/// action over is what scheduling means: the caller gives the closure to the scheduler, which
/// runs it on its own thread (one run at a time for a one-shot action, and for a repeating one
/// the scheduler's own serialisation — a serial queue, one run loop thread). That transfer is the
/// caller's promise under the `Scheduler` contract, so this box is `@unchecked Sendable`.
struct SchedulerAction: @unchecked Sendable {
    /// The action to perform.
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }

    /// The action itself, typed as the `@Sendable` closure a Dispatch call takes: the same
    /// closure, not a closure calling it, so handing it to a queue copies it into one block
    /// and allocates nothing else (a closure literal calling `run` would capture it in a
    /// context object of its own, one allocation more per scheduled action).
    ///
    /// The two closure types differ only in the `Sendable` marker and are laid out alike. The
    /// cast is of the struct holding the closure: casting the closure itself through the
    /// generic `unsafeBitCast` would wrap it in a reabstraction thunk, an allocation.
    var sendable: @Sendable () -> Void {
        unsafeBitCast(self, to: SendableSchedulerAction.self).run
    }
}

/// ``SchedulerAction``'s layout with the closure typed `@Sendable` (see ``SchedulerAction/sendable``).
private struct SendableSchedulerAction {
    let run: @Sendable () -> Void
}
