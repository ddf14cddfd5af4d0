// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization

/// How long a real-scheduler test waits for something that should happen within milliseconds.
/// Generous, so a loaded machine does not fail the test; a passing test never waits this long.
let generousTimeout: DispatchTimeInterval = .seconds(10)

/// A thread that runs its own run loop, in the default mode, until stopped (or for at most a
/// minute), for tests of the run loop scheduler and the timer publisher.
final class RunLoopThread: Sendable {
    /// The run loop of the thread, handed over once it runs.
    ///
    /// `nonisolated(unsafe)`: written once by the thread before `started` is signalled and read
    /// only after waiting for that signal.
    nonisolated(unsafe) private(set) var runLoop: RunLoop!
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            // A run loop with nothing to wait for returns at once; this timer keeps it waiting.
            let keepAlive = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            RunLoop.current.add(keepAlive, forMode: .default)
            started.signal()
            let limit = Date(timeIntervalSinceNow: 60)
            while !stopped.load(ordering: .acquiring) && Date() < limit {
                _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            keepAlive.invalidate()
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    /// Whether the caller runs on this thread's run loop.
    var isCurrent: Bool { RunLoop.current === runLoop }

    /// Stops the run loop and waits for the thread to finish.
    func stop() {
        stopped.store(true, ordering: .releasing)
        _ = finished.wait(timeout: .now() + generousTimeout)
    }
}

/// A counter that closures on other threads increment, signalling when it reaches a target.
final class TickCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let target: Int
    private let reached = DispatchSemaphore(value: 0)

    init(signallingAt target: Int) {
        self.target = target
    }

    var value: Int { count.load(ordering: .acquiring) }

    func increment() {
        if count.add(1, ordering: .acquiringAndReleasing).newValue == target { reached.signal() }
    }

    /// Waits, at most the generous timeout, for the count to reach the target.
    func waitForTarget() -> Bool {
        reached.wait(timeout: .now() + generousTimeout) == .success
    }
}

extension DispatchSemaphore {
    /// Waits, at most the generous timeout, for a signal.
    func waitGenerously() -> Bool {
        wait(timeout: .now() + generousTimeout) == .success
    }
}
