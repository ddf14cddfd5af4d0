// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Testing

@testable import CombineExtras

@Suite struct LockTests {
    @Test func lockedReturnsTheBodysResultAndReleases() {
        let lock = Lock()
        #expect(lock.withLock { 41 + 1 } == 42)
        #expect(lock.withLock { "again" } == "again")  // a held lock would deadlock here
    }
}
