// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// The suite's helper for blocking tests (`offThePool`, Tests/TestSupport): a body runs on a
/// thread of its own executor, inside the test's task, and leaves the cooperative pool free.
@Suite("Test support: blocking work off the cooperative pool")
struct OffThePoolTests {
    @Test func theBodyRunsOnTheExecutorsThreadInsideTheTest() async {
        #expect(!BlockingExecutor.runsHere)
        let seen = await offThePool { (BlockingExecutor.runsHere, Test.current?.name ?? "") }
        #expect(seen.0)
        // The test's task-locals reach the body: its expectations are recorded for this test
        // (an expectation on a thread of the test's own making has no test to count for).
        #expect(seen.1 == "theBodyRunsOnTheExecutorsThreadInsideTheTest()")
    }

    /// Every thread of the executor blocked at once, each waiting for a task to signal it: the
    /// tasks run on the pool meanwhile. (When blocking bodies ran on the pool, as many of them
    /// as the pool has threads left no thread for such a task.)
    @Test func bodiesBlockingEveryThreadOfTheExecutorLeaveThePoolFree() async {
        // An executor of the test's own, so that no other test's body is queued before these.
        let width = 2
        let executor = BlockingExecutor(threads: width, belowThePool: true)
        let rendezvous = Rendezvous(count: width)
        let served = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<width {
                group.addTask { await offThePool(on: executor) { rendezvous.arriveAndWait(index) } }
            }
            // An unstructured task, which does not run on the executor's threads.
            Task.detached {
                while rendezvous.arrived < width { try? await Task.sleep(for: .milliseconds(1)) }
                rendezvous.signalAll()
            }
            var all = true
            for await served in group { all = all && served }
            return all
        }
        #expect(served)
    }
}

/// Blocking bodies that each wait for a signal, and a count of those that have begun waiting.
private final class Rendezvous: Sendable {
    private let signals: [DispatchSemaphore]
    private let count = Atomic<Int>(0)

    init(count: Int) {
        signals = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }

    var arrived: Int { count.load(ordering: .acquiring) }

    /// Whether the signal came within a minute.
    func arriveAndWait(_ index: Int) -> Bool {
        count.add(1, ordering: .releasing)
        return signals[index].wait(timeout: .now() + 60) == .success
    }

    func signalAll() {
        for signal in signals { signal.signal() }
    }
}
