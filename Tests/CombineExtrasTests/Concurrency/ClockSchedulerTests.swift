// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Clock.scheduler and TestScheduler.clock")
struct ClockSchedulerTests {
    /// A real clock drives a time operator.
    @Test func aContinuousClockDrivesDelay() async {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        Just(1).delay(for: .milliseconds(5), scheduler: ContinuousClock().scheduler).subscribe(subscriber)
        #expect(await eventually { subscriber.completion == .finished })
        #expect(subscriber.values == [1])
    }

    /// A clock the test controls: `debounce` on a clock scheduler whose clock is a test
    /// scheduler's. Nothing is delivered before the virtual deadline; it is at the deadline.
    @Test func aTestSchedulersClockDrivesDebounce() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let scheduler = virtual.clock.scheduler
        let query = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<String, Never>(initialDemand: .unlimited)
        query.debounce(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        query.send("sw")
        query.send("swift")
        // The scheduler's task is now asleep on the virtual clock, until 1 s.
        #expect(await eventually { virtual.pendingActionCount == 1 })
        virtual.advance(by: .milliseconds(999))
        #expect(subscriber.values.isEmpty)  // not due yet
        #expect(await eventually { virtual.pendingActionCount == 1 })  // still asleep until 1 s
        virtual.advance(by: .milliseconds(1))
        #expect(await eventually { subscriber.values == ["swift"] })
    }

    @Test func actionsDueTogetherRunInTheOrderScheduled() async {
        let scheduler = ContinuousClock().scheduler
        let order = LockedValue<[Int]>([])
        for value in 1...5 { scheduler.schedule { order.append(value) } }
        #expect(await eventually { order.current.count == 5 })
        #expect(order.current == [1, 2, 3, 4, 5])
    }

    /// `receive(on:)` keeps the order of the values.
    @Test func receiveOnKeepsOrder() async {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        (1...100).publisher.receive(on: ContinuousClock().scheduler).subscribe(subscriber)
        #expect(await eventually { subscriber.completion == .finished })
        #expect(subscriber.values == Array(1...100))
    }

    @Test func aRepeatingActionRunsEveryIntervalUntilCancelled() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let scheduler = virtual.clock.scheduler
        let runs = LockedValue(0)
        let cancellable = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
        ) { runs.increment() }
        for expected in 1...3 {
            #expect(await eventually { virtual.pendingActionCount == 1 })
            virtual.advance(by: .seconds(1))
            #expect(await eventually { runs.current == expected })
        }
        cancellable.cancel()
        #expect(await eventually { virtual.pendingActionCount <= 1 })
        virtual.advance(by: .seconds(5))
        #expect(runs.current == 3)
    }

    /// Many actions at scattered due times, several due together: they run in due-time order,
    /// and those due together in the order they were scheduled (the heap keeps both orders).
    @Test func manyActionsRunInDueTimeThenSchedulingOrder() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let scheduler = virtual.clock.scheduler
        let order = LockedValue<[Int]>([])
        let count = 2_000
        // 2,000 actions over 97 distinct due times (in milliseconds), in a scattered order.
        let dues = (0..<count).map { ($0 &* 7_919) % 97 }
        for (index, due) in dues.enumerated() {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(due))) { order.append(index) }
        }
        #expect(await eventually { virtual.pendingActionCount == 1 })  // the driver's sleep
        virtual.advance(by: .seconds(1))
        #expect(await eventually { order.current.count == count })
        let expected = (0..<count).sorted { (dues[$0], $0) < (dues[$1], $1) }
        #expect(order.current == expected)
        #expect(scheduler.heldActionCount == 0)
    }

    /// Scheduling and cancelling repeating actions with nothing else live leaves the scheduler
    /// holding a bounded number of actions: a cancelled action is forgotten, not remembered in
    /// a set for ever (before, every cancelled action's id stayed in a set).
    @Test func cancelledRepeatingActionsAreForgotten() async {
        await offThePool {
            let scheduler = ContinuousClock().scheduler
            let later = scheduler.now.advanced(by: .seconds(3_600))
            var most = 0
            for index in 0..<20_000 {
                let cancellable = scheduler.schedule(
                    after: later.advanced(by: .milliseconds(index % 500)), interval: .seconds(1)
                ) {}
                cancellable.cancel()
                most = max(most, scheduler.heldActionCount)
            }
            #expect(most <= 130)
            // With live actions too, what it holds stays within twice the live ones (plus the slack).
            let live = (0..<1_000).map { index in
                scheduler.schedule(after: later.advanced(by: .milliseconds(index)), interval: .seconds(1)) {}
            }
            for index in 0..<20_000 {
                scheduler.schedule(after: later.advanced(by: .milliseconds(index % 500)), interval: .seconds(1)) {}
                    .cancel()
                most = max(most, scheduler.heldActionCount)
            }
            #expect(most <= 2 * live.count + 130)
            #expect(scheduler.heldActionCount >= live.count)
            for cancellable in live { cancellable.cancel() }
        }
    }

    /// A cancelled repeating action at the head of the heap does not run, and the actions behind
    /// it still do.
    @Test func aCancelledRepeatingActionDoesNotRunAndOthersStillDo() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let scheduler = virtual.clock.scheduler
        let runs = LockedValue<[String]>([])
        let first = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(10)) {
            runs.append("first")
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { runs.append("second") }
        first.cancel()
        #expect(await eventually { virtual.pendingActionCount == 1 })
        virtual.advance(by: .seconds(3))
        #expect(await eventually { runs.current == ["second"] })
        #expect(await eventually { scheduler.heldActionCount == 0 })
    }

    @Test func strideArithmetic() {
        typealias Stride = ClockScheduler<ContinuousClock>.SchedulerTimeType.Stride
        #expect(Stride.seconds(1) + .milliseconds(500) == Stride(.milliseconds(1_500)))
        #expect(Stride.seconds(2) * 3 == Stride.seconds(6))
        #expect(Stride(floatLiteral: 0.25) == .milliseconds(250))
        #expect(Stride.seconds(-2).magnitude == .seconds(2))
        let scheduler = ContinuousClock().scheduler
        let now = scheduler.now
        #expect(now.distance(to: now.advanced(by: .seconds(3))) == .seconds(3))
    }

    /// The reverse bridge: `async` code sleeping on a test scheduler's clock wakes when the
    /// test advances the scheduler.
    @Test func sleepingOnATestSchedulersClock() async throws {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let clock = virtual.clock
        let woke = LockedValue(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(5))
            woke.set(true)
        }
        #expect(await eventually { virtual.pendingActionCount == 1 })
        virtual.advance(by: .seconds(4))
        #expect(!woke.current)
        virtual.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.current)
        #expect(clock.now == TestSchedulerClock.Instant(nanoseconds: 5_000_000_000))
    }

    @Test func cancellingASleeperThrowsAndUnschedulesItsWakeUp() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let clock = virtual.clock
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        #expect(await eventually { virtual.pendingActionCount == 1 })
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(virtual.pendingActionCount == 0)
    }

    /// Durations past the range of whole nanoseconds in an `Int` (about 292 years) saturate, as
    /// `DispatchTime` does, instead of trapping: a sleep "for ever" on the test clock waits
    /// until cancelled (this trapped with an integer overflow before).
    @Test func hugeDurationsSaturate() async {
        let virtual = TestScheduler<VirtualTime, Never>(now: .zero)
        let clock = virtual.clock
        #expect(clock.now.advanced(by: .seconds(1 << 40)).nanoseconds == .max)
        #expect(clock.now.advanced(by: .seconds(-(1 << 40))).nanoseconds == .min)
        #expect(clock.now.advanced(by: .seconds(Int64.max)).advanced(by: .seconds(1)).nanoseconds == .max)
        let end = TestSchedulerClock.Instant(nanoseconds: .max)
        let start = TestSchedulerClock.Instant(nanoseconds: .min)
        #expect(start.duration(to: end) == .nanoseconds(Int128(Int.max) - Int128(Int.min)))
        let sleeper = Task { try await clock.sleep(for: .seconds(1 << 40)) }
        #expect(await eventually { virtual.pendingActionCount == 1 })
        virtual.advance(by: .seconds(3_600 * 24 * 365))
        #expect(virtual.pendingActionCount == 1)  // still asleep a year later
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
