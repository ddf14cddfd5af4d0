import Combine
import CombineExtras
import CombineTesting
import Observation
import Testing

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
}

@Observable
private final class Counter {
    var count = 0
    var label = "start"
}

@Suite("Observable.observationPublisher(for:)")
struct ObservationPublisherTests {
    @Test func publishesTheCurrentValueThenEachChange() async {
        let counter = Counter()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        counter.observationPublisher(for: \.count).subscribe(subscriber)
        #expect(await eventually { subscriber.values == [0] })
        counter.count = 1
        #expect(await eventually { subscriber.values == [0, 1] })
        counter.label = "other"  // another property: no value
        counter.count = 2
        #expect(await eventually { subscriber.values.last == 2 })
        #expect(subscriber.values == [0, 1, 2])
        subscriber.cancel()
    }

    /// The publisher holds the object weakly: a subscription does not keep it alive.
    @Test func doesNotRetainTheObject() async {
        weak var weakCounter: Counter?
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        do {
            let counter = Counter()
            weakCounter = counter
            counter.observationPublisher(for: \.count).subscribe(subscriber)
            #expect(await eventually { subscriber.values == [0] })
        }
        #expect(await eventually { weakCounter == nil })
        subscriber.cancel()
    }
}
