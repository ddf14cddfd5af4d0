// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
    @Test func runsEveryActionAtOnceOnTheCallingThread() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(10))) { log.append("later") }
        let cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) { log.append("repeating") }
        cancellable.cancel()
        #expect(log == ["now", "later", "repeating"])
        #expect(scheduler.now.distance(to: scheduler.now.advanced(by: 5)) == 0)
        #expect(scheduler.minimumTolerance == 0)
    }

    @Test func receiveOnTheImmediateSchedulerDeliversSynchronously() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func strideArithmetic() {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        #expect(Stride(2) + 3 == 5)
        #expect(Stride(2) - 3 == -1)
        #expect(Stride(2) * 3 == 6)
        #expect(Stride(exactly: UInt64.max) == nil)
        // Time means nothing to the immediate scheduler: Apple's converts every unit to zero.
        #expect(Stride.seconds(4).magnitude == 0)
        #expect(Stride.seconds(2.9) == 0)
        #expect(Stride.milliseconds(7) == 0)
        #expect(Stride(floatLiteral: 1.0) < Stride(integerLiteral: 2))
    }
}
