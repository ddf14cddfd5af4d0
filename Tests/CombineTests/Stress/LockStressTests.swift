// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Combine

/// A counter that only the lock protects: any lost update shows as a wrong total.
private final class GuardedCounter: @unchecked Sendable {
    let lock = Lock()
    var count = 0
    var holders = 0
    var overlapSeen = false
}

/// The library's own lock (`CombineSynchronization.Lock`): mutual exclusion when threads really
/// overlap, and a thread that had to sleep on the lock is woken when it is given up.
@Suite struct LockStressTests {
    @Test func fourThreadsTimes20000IncrementsLoseNone() {
        let counter = GuardedCounter()
        runOverlapping(threads: 4) { _ in
            for _ in 0..<20_000 {
                counter.lock.withLock {
                    counter.holders += 1
                    if counter.holders != 1 { counter.overlapSeen = true }
                    counter.count += 1
                    counter.holders -= 1
                }
            }
        }
        #expect(counter.count == 80_000)
        #expect(!counter.overlapSeen)
    }

    /// Long critical sections make waiters give up spinning and sleep; every one must be
    /// woken, or the test never returns.
    @Test func waitersThatSleepAreWokenFourThreadsTimes200() {
        let counter = GuardedCounter()
        runOverlapping(threads: 4) { _ in
            for _ in 0..<200 {
                counter.lock.acquire()
                counter.holders += 1
                if counter.holders != 1 { counter.overlapSeen = true }
                // Hold the lock for a while (about 20 µs) so the others run out of spins.
                var spin = 0
                for step in 0..<2_000 { spin &+= step }
                counter.count += spin == 1_999_000 ? 1 : 0
                counter.holders -= 1
                counter.lock.release()
            }
        }
        #expect(counter.count == 800)
        #expect(!counter.overlapSeen)
    }

    /// A thread blocked behind a holder that keeps the lock far longer than the spin gets it
    /// as soon as the holder lets go.
    @Test func aBlockedThreadGetsTheLockWhenTheHolderReleasesIt() {
        let counter = GuardedCounter()
        let waiterStarted = DispatchSemaphore(value: 0)
        let waiterDone = DispatchSemaphore(value: 0)
        counter.lock.acquire()
        Thread {
            waiterStarted.signal()
            counter.lock.withLock { counter.count += 1 }
            waiterDone.signal()
        }.start()
        waiterStarted.wait()
        // The waiter cannot get in while the lock is held, however long that is.
        #expect(waiterDone.wait(timeout: .now() + .milliseconds(50)) == .timedOut)
        #expect(counter.count == 0)
        counter.lock.release()
        #expect(waiterDone.wait(timeout: .now() + .seconds(30)) == .success)
        #expect(counter.lock.withLock { counter.count } == 1)
    }
}
