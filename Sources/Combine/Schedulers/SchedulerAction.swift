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
}
