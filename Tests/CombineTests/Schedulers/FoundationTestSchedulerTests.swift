// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

@Suite("DispatchQueue.test, RunLoop.test, OperationQueue.test")
struct FoundationTestSchedulerTests {
    @Test func startAtFixedInstants() {
        #expect(DispatchQueue.test.now.dispatchTime.uptimeNanoseconds == 1)
        #expect(RunLoop.test.now.date == Date(timeIntervalSince1970: 0))
        #expect(OperationQueue.test.now.date == Date(timeIntervalSince1970: 0))
    }

    @Test func eachAccessIsANewScheduler() {
        let first = DispatchQueue.test
        first.advance(by: .seconds(1))
        #expect(DispatchQueue.test.now.dispatchTime.uptimeNanoseconds == 1)
        #expect(first !== DispatchQueue.test)
    }

    @Test func dispatchQueueTestAdvancesWithDispatchStrides() {
        let scheduler = DispatchQueue.test
        let log = LockedValue<[String]>([])
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) { log.append("300ms") }
        scheduler.schedule(after: scheduler.now.advanced(by: 1)) { log.append("1s") }
        scheduler.schedule { log.append("now") }
        scheduler.advance(by: .milliseconds(299))
        #expect(log.current == ["now"])
        scheduler.advance(by: .milliseconds(1))
        #expect(log.current == ["now", "300ms"])
        #expect(scheduler.now.dispatchTime.uptimeNanoseconds == 300_000_001)
        scheduler.advance(by: 0.7)
        #expect(log.current == ["now", "300ms", "1s"])
        #expect(scheduler.now == DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000_000_001)))
    }

    @Test func dispatchQueueTestRepeatsUntilCancelled() {
        let scheduler = DispatchQueue.test
        let ticks = LockedValue<[UInt64]>([])
        let cancellable = scheduler.schedule(
            after: scheduler.now.advanced(by: .milliseconds(10)), interval: .milliseconds(10)
        ) {
            ticks.append(scheduler.now.dispatchTime.uptimeNanoseconds)
        }
        scheduler.advance(by: .milliseconds(35))
        #expect(ticks.current == [10_000_001, 20_000_001, 30_000_001])
        cancellable.cancel()
        scheduler.advance(by: .seconds(1))
        #expect(ticks.current.count == 3)
    }

    @Test func runLoopAndOperationQueueTestsAdvanceInSeconds() {
        let runLoop = RunLoop.test
        let queue = OperationQueue.test
        let log = LockedValue<[String]>([])
        runLoop.schedule(after: runLoop.now.advanced(by: 1.5)) { log.append("run loop") }
        queue.schedule(after: queue.now.advanced(by: .milliseconds(500))) { log.append("queue") }
        runLoop.advance(by: 1)
        queue.advance(by: .seconds(1))
        #expect(log.current == ["queue"])
        runLoop.advance(by: .milliseconds(500))
        #expect(log.current == ["queue", "run loop"])
        #expect(runLoop.now.date == Date(timeIntervalSince1970: 1.5))
        #expect(queue.now.date == Date(timeIntervalSince1970: 1))
    }

    /// Code written against a concrete scheduler's types takes the test scheduler in its place.
    @Test func standsInForGenericSchedulerCode() {
        func delayedGreeting<S: Scheduler>(on scheduler: S, after delay: S.SchedulerTimeType.Stride)
            -> LockedValue<String?>
        {
            let greeting = LockedValue<String?>(nil)
            scheduler.schedule(after: scheduler.now.advanced(by: delay)) { greeting.withLock { $0 = "hello" } }
            return greeting
        }
        let scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
        let greeting = delayedGreeting(on: scheduler, after: .seconds(2))
        scheduler.advance(by: .seconds(1))
        #expect(greeting.current == nil)
        scheduler.advance(by: .seconds(1))
        #expect(greeting.current == "hello")
    }
}
