// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("TestScheduler: virtual time")
struct TestSchedulerTests {
    private typealias Scheduler = TestScheduler<VirtualTime, Never>

    @Test func runsNothingUntilTheClockMoves() {
        let scheduler = Scheduler()
        let log = LockedValue<[String]>([])
        scheduler.schedule { log.withLock { $0.append("now") } }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.withLock { $0.append("1s") } }
        #expect(log.withLock { $0 }.isEmpty)
        scheduler.advance()
        #expect(log.withLock { $0 } == ["now"])
        scheduler.advance(by: .milliseconds(999))
        #expect(log.withLock { $0 } == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.withLock { $0 } == ["now", "1s"])
        #expect(scheduler.now == VirtualTime(nanoseconds: 1_000_000_000))
    }

    @Test func runsActionsInDueOrderAndSameInstantInSchedulingOrder() {
        let scheduler = Scheduler()
        let log = LockedValue<[String]>([])
        let at = { (seconds: Int, name: String) in
            scheduler.schedule(after: VirtualTime.zero.advanced(by: .seconds(seconds))) {
                log.withLock { $0.append(name) }
            }
        }
        at(3, "c")
        at(1, "a1")
        at(2, "b")
        at(1, "a2")
        scheduler.advance(by: .seconds(5))
        #expect(log.withLock { $0 } == ["a1", "a2", "b", "c"])
    }

    @Test func eachActionSeesTheClockAtItsDueTime() {
        let scheduler = Scheduler()
        let seen = LockedValue<[VirtualTime]>([])
        for seconds in [2, 1] {
            scheduler.schedule(after: .zero.advanced(by: .seconds(seconds))) {
                seen.withLock { $0.append(scheduler.now) }
            }
        }
        scheduler.advance(by: .seconds(10))
        #expect(seen.withLock { $0 } == [.zero.advanced(by: .seconds(1)), .zero.advanced(by: .seconds(2))])
        #expect(scheduler.now == .zero.advanced(by: .seconds(10)))
    }

    @Test func anActionMayScheduleMoreThatRunInTheSameAdvance() {
        let scheduler = Scheduler()
        let log = LockedValue<[VirtualTime]>([])
        scheduler.schedule(after: .zero.advanced(by: .seconds(1))) {
            log.withLock { $0.append(scheduler.now) }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
                log.withLock { $0.append(scheduler.now) }
            }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {
                log.withLock { $0.append(scheduler.now) }
            }
        }
        scheduler.advance(by: .seconds(3))
        #expect(log.withLock { $0 } == [.zero.advanced(by: .seconds(1)), .zero.advanced(by: .seconds(2))])
        #expect(scheduler.pendingActionCount == 1)
        scheduler.run()
        #expect(log.withLock { $0 }.last == .zero.advanced(by: .seconds(6)))
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func repeatingActionsRepeatUntilCancelled() {
        let scheduler = Scheduler()
        let ticks = LockedValue<[VirtualTime]>([])
        let cancellable = scheduler.schedule(after: .zero.advanced(by: .seconds(1)), interval: .seconds(2)) {
            ticks.withLock { $0.append(scheduler.now) }
        }
        scheduler.advance(by: .seconds(6))
        #expect(ticks.withLock { $0 }.map(\.nanoseconds) == [1, 3, 5].map { $0 * 1_000_000_000 })
        cancellable.cancel()
        scheduler.advance(by: .seconds(10))
        #expect(ticks.withLock { $0 }.count == 3)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aPastDateRunsAtTheCurrentTimeWithoutMovingTheClockBack() {
        let scheduler = Scheduler()
        scheduler.advance(by: .seconds(5))
        let seen = LockedValue<VirtualTime?>(nil)
        scheduler.schedule(after: .zero) { seen.withLock { $0 = scheduler.now } }
        scheduler.advance()
        #expect(seen.withLock { $0 } == .zero.advanced(by: .seconds(5)))
    }

    @Test func advancingBackwardsTraps() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                TestScheduler<VirtualTime, Never>().advance(by: .seconds(-1))
            }
        }
    }

    @Test func virtualTimeStrideConversions() {
        typealias Stride = VirtualTime.Stride
        #expect(Stride.seconds(2) == 2)
        #expect(Stride.seconds(0.5) == 0.5)
        #expect(Stride.milliseconds(1500) == 1.5)
        #expect(Stride.microseconds(3).nanoseconds == 3_000)
        #expect(Stride.nanoseconds(7).nanoseconds == 7)
        #expect(Stride(exactly: 3) == .seconds(3))
        #expect(Stride(exactly: Int64.max) == nil)
        #expect(Stride.seconds(2) * 3 == .seconds(6))
        #expect((Stride.seconds(2) - .seconds(5)).magnitude == .seconds(3))
        #expect(VirtualTime.zero.distance(to: .zero.advanced(by: .seconds(4))) == .seconds(4))
    }
}
