// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Publishers.interval")
struct IntervalTests {
    @Test func countsEveryPeriodFromTheSubscription() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let interval = Publishers.interval(.seconds(2), scheduler: scheduler)
        scheduler.advance(by: .seconds(5))  // nothing runs before a subscription
        let subscriber = TestSubscriber<Int, Never>()
        interval.subscribe(subscriber)
        var times: [Int] = []
        for _ in 0..<7 {
            scheduler.advance(by: .seconds(1))
            times.append(subscriber.values.count)
        }
        // One value per two seconds, the first two seconds after subscribing.
        #expect(times == [0, 1, 1, 2, 2, 3, 3])
        #expect(subscriber.values == [0, 1, 2])
        #expect(subscriber.completion == nil)
    }

    @Test func ticksWithoutDemandAreSkippedAndTheCountStaysConsecutive() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.Interval(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values == [0])
        subscriber.request(.max(2))
        scheduler.advance(by: .milliseconds(500))
        #expect(subscriber.values == [0])  // no value before the next tick
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [0, 1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveCounts() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { $0 < 2 ? .max(1) : .none })
        Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(10))
        #expect(subscriber.values == [0, 1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelStopsTheRepeatingAction() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(scheduler.pendingActionCount == 1)
        scheduler.advance(by: .seconds(1))
        subscriber.cancel()
        subscriber.cancel()
        #expect(scheduler.pendingActionCount == 0)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values == [0])
    }

    @Test func cancellingInsideReceiveSubscriptionSchedulesNothing() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>(onSubscription: { $0.cancel() })
        Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(scheduler.pendingActionCount == 0)
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.values.isEmpty)
    }

    @Test func eachSubscriberHasItsOwnCount() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let interval = Publishers.interval(.seconds(1), scheduler: scheduler)
        let first = TestSubscriber<Int, Never>()
        interval.subscribe(first)
        scheduler.advance(by: .seconds(2))
        let second = TestSubscriber<Int, Never>()
        interval.subscribe(second)
        scheduler.advance(by: .seconds(2))
        #expect(first.values == [0, 1, 2, 3])
        #expect(second.values == [0, 1])
    }

    @Test func releasesTheSubscriberAfterCancel() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            Publishers.interval(.seconds(1), scheduler: scheduler).subscribe(subscriber)
            scheduler.advance(by: .seconds(1))
            #expect(subscriber.values == [0])
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aReleasedSinkStopsTheRepeatingAction() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        var values: [Int] = []
        do {
            let cancellable = Publishers.interval(.seconds(1), scheduler: scheduler).sink { values.append($0) }
            withExtendedLifetime(cancellable) { scheduler.advance(by: .seconds(2)) }
        }
        #expect(scheduler.pendingActionCount == 0)
        scheduler.advance(by: .seconds(2))
        #expect(values == [0, 1])
    }

    @Test func aPeriodOfZeroTraps() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                _ = Publishers.interval(.zero, scheduler: TestScheduler<VirtualTime, Never>())
            }
        }
    }
}
