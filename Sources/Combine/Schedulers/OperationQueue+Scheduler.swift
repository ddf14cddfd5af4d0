// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import CombineSynchronization
import Dispatch
import Foundation
import Synchronization

extension OperationQueue: Scheduler {
    // The time type, the options, `now` and `minimumTolerance` are in DateSchedulerTime.swift,
    // generated with the operation queue's and the run loop's from one template.

    /// Adds an operation that performs the action to this queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        addOperation(BlockOperation(block: SchedulerAction(action).sendable))
    }

    /// Adds an operation that performs the action to this queue once `date` has passed.
    ///
    /// As Apple's: the operation joins the queue at once (`waitUntilAllOperationsAreFinished()`
    /// waits for it) and becomes ready when `date` comes; cancelling it makes it ready at once
    /// and it does not perform the action.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayedOperation(action: SchedulerAction(action), chain: nil)
        addOperation(operation)
        operation.becomeReady(at: Self.deadline(for: date))
    }

    /// Adds an operation that performs the action to this queue from `date` on, every
    /// `interval`, until the returned cancellable is cancelled or released.
    ///
    /// As Apple's: one operation at a time waits in the queue until it is due; when it runs,
    /// it adds the next one, due `interval` later. After cancellation the waiting operation
    /// is cancelled and nothing more is added.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let chain = DelayedOperation.Chain(queue: self, interval: .nanoseconds(max(Self.nanoseconds(interval), 1)))
        let operation = DelayedOperation(action: SchedulerAction(action), chain: chain)
        chain.start(operation, at: Self.deadline(for: date))
        return AnyCancellable(chain)
    }

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

/// An operation of the operation queue scheduler that waits in the queue, not ready, until
/// its time comes (a timer on the scheduler's timing queue makes it ready).
private final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
    /// The repeating schedule an operation belongs to: the operation waiting now, and whether
    /// the schedule was cancelled.
    final class Chain: Cancellable, @unchecked Sendable {
        private let lock = Lock()
        private weak var queue: OperationQueue?
        let interval: DispatchTimeInterval
        private var current: DelayedOperation?
        private var cancelled = false

        init(queue: OperationQueue, interval: DispatchTimeInterval) {
            self.queue = queue
            self.interval = interval
        }

        /// Adds `operation` to the queue as the one waiting now, due at `deadline`.
        func start(_ operation: DelayedOperation, at deadline: DispatchTime) {
            let queue: OperationQueue? = lock.withLock {
                guard !cancelled else { return nil }
                current = operation
                return self.queue
            }
            guard let queue else { return }
            queue.addOperation(operation)
            operation.becomeReady(at: deadline)
        }

        func cancel() {
            let waiting: DelayedOperation? = lock.withLock {
                cancelled = true
                return current.take()
            }
            waiting?.cancel()
        }
    }

    private let lock = Lock()
    private var action: SchedulerAction?
    private var due = false
    private let chain: Chain?

    init(action: SchedulerAction, chain: Chain?) {
        self.action = action
        self.chain = chain
        super.init()
    }

    override var isReady: Bool {
        lock.withLock { due } && super.isReady
    }

    /// Makes the operation ready at `deadline`.
    func becomeReady(at deadline: DispatchTime) {
        DelayedOperation.timing.asyncAfter(deadline: deadline) { [weak self] in
            self?.markDue()
        }
    }

    private func markDue() {
        willChangeValue(for: \.isReady)
        lock.withLock { due = true }
        didChangeValue(for: \.isReady)
    }

    override func cancel() {
        _ = lock.withLock { action.take() }  // released here, outside the lock
        super.cancel()
        markDue()  // a cancelled operation becomes ready, so that the queue lets it go
    }

    override func main() {
        guard let action = lock.withLock({ action.take() }), !isCancelled else { return }
        action.run()
        guard let chain else { return }
        chain.start(DelayedOperation(action: action, chain: chain), at: .now() + chain.interval)
    }

    /// The serial queue whose timers make delayed operations ready.
    private static let timing = DispatchQueue(label: "swift-combine.OperationQueue.scheduler-timing")
}
#endif
