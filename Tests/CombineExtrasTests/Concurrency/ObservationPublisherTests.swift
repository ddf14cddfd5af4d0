// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Observation
import Testing

@testable import CombineExtras

@Observable
private final class Counter {
    var count = 0
    var label = "start"
}

/// A model whose property may be set from any thread: the value is kept under a lock, and a
/// change takes a moment between announcing itself (`withMutation` tells observers first) and
/// storing the value, as a setter with work to do does.
@Observable
private final class SharedCounter: @unchecked Sendable {
    @ObservationIgnored private let storage = LockedValue(0)

    var count: Int {
        get {
            access(keyPath: \.count)
            return storage.current
        }
        set {
            withMutation(keyPath: \.count) {
                // A few microseconds of work of this thread's own, touching no shared memory.
                var work = newValue
                for _ in 0..<2_000 { work = slowDown(work) }
                storage.set(work == Int.min ? 0 : newValue)
            }
        }
    }
}

@inline(never)
private func slowDown(_ value: Int) -> Int {
    value &* 31 &+ 7
}

/// A value that is not `Equatable`.
private struct Reading: Sendable {
    let count: Int
}

@Observable
private final class Meter {
    var reading = Reading(count: 0)
}

/// The tests of a plain `@Observable` model (`Counter`, `Meter`: not `Sendable`, no lock) run on
/// the main actor, as such a model lives in an app: the test's changes and the publisher's reads
/// (made on the actor the publisher was made on) never overlap. Made from nonisolated code, the
/// reads would run on the global executor while the test writes: a data race in the test, which
/// ThreadSanitizer reports.
@Suite("Observable.observationPublisher(for:)")
struct ObservationPublisherTests {
    /// The current value, then one per change of that property; the settling read after the
    /// changes publishes nothing more, as nothing changed after them.
    @MainActor
    @Test func publishesTheCurrentValueThenEachChange() async throws {
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
        try await Task.sleep(for: ObservedValues<Int>.settlingDelay * 5)
        #expect(subscriber.values == [0, 1, 2])
        subscriber.cancel()
    }

    /// The publisher holds the object weakly: a subscription does not keep it alive.
    @MainActor
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

    /// `Observations` is told of a change before the value is stored; a read on another thread
    /// in between sees the old value, and if that change was the last one nothing tells it
    /// again. Four threads set the property 2,000 times each while 60 subscriptions follow it
    /// (half share one publisher, half have their own): once the setters stop, every
    /// subscriber's last value is the property's value. Three rounds. (Before the property was
    /// read again after a quiet spell, some of the 60 ended on an older value in most runs.)
    @Test func everySubscriberEndsOnTheFinalValueWhenThreadsRace() async {
        for _ in 0..<3 { await subscribersEndOnTheFinalValue() }
    }

    private func subscribersEndOnTheFinalValue() async {
        let counter = SharedCounter()
        let shared = counter.observationPublisher(for: \.count)
        let subscribers = (0..<60).map { _ in TestSubscriber<Int, Never>(initialDemand: .unlimited) }
        for (index, subscriber) in subscribers.enumerated() {
            if index.isMultiple(of: 2) {
                shared.subscribe(subscriber)
            } else {
                counter.observationPublisher(for: \.count).subscribe(subscriber)
            }
        }
        #expect(await eventually { subscribers.allSatisfy { !$0.values.isEmpty } })
        let next = LockedValue(0)
        runOverlapping(threads: 4) { _ in
            for _ in 0..<2_000 {
                counter.count = next.withLock { value in
                    value += 1
                    return value
                }
            }
        }
        let final = counter.count
        let allCurrent = await eventually(timeout: .seconds(30)) {
            subscribers.allSatisfy { $0.values.last == final }
        }
        let stale = subscribers.filter { $0.values.last != final }.map { $0.values.suffix(3) }
        #expect(allCurrent, "final value \(final); subscribers ending elsewhere: \(stale)")
        for subscriber in subscribers { subscriber.cancel() }
    }

    /// A value that is not `Equatable` is published as `Observations` reads it, and not read
    /// again.
    @MainActor
    @Test func aValueThatIsNotEquatableIsPublishedWithoutTheSettlingRead() async throws {
        let meter = Meter()
        let subscriber = TestSubscriber<Reading, Never>(initialDemand: .unlimited)
        meter.observationPublisher(for: \.reading).subscribe(subscriber)
        #expect(await eventually { subscriber.values.map(\.count) == [0] })
        meter.reading = Reading(count: 7)
        #expect(await eventually { subscriber.values.map(\.count) == [0, 7] })
        try await Task.sleep(for: ObservedValues<Reading>.settlingDelay * 5)
        #expect(subscriber.values.map(\.count) == [0, 7])
        subscriber.cancel()
    }

    /// Without demand nothing is read: changes made meanwhile arrive as one value, the current
    /// one, when the subscriber asks.
    @MainActor
    @Test func changesWithoutDemandArriveAsTheCurrentValue() async throws {
        let counter = Counter()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        counter.observationPublisher(for: \.count).subscribe(subscriber)
        #expect(await eventually { subscriber.values == [0] })
        counter.count = 1
        counter.count = 2
        counter.count = 3
        try await Task.sleep(for: ObservedValues<Int>.settlingDelay * 5)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(await eventually { subscriber.values == [0, 3] })
        subscriber.cancel()
    }

    /// Made inside an actor, the publisher reads the property on that actor.
    @Test func readsThePropertyOnTheActorItWasMadeOn() async {
        let probe = IsolationProbe()
        let reader = QueueActor()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        await reader.subscribe(subscriber, to: probe)
        #expect(await eventually { subscriber.values == [0] })
        probe.count = 1
        #expect(await eventually { subscriber.values == [0, 1] })
        #expect(probe.readsOffTheActor.current == 0)
        #expect(probe.readsOnTheActor.current >= 2)
        subscriber.cancel()
    }
}

private let queueKey = DispatchSpecificKey<Bool>()

/// An executor that runs its jobs on one serial queue, tagged so that code can tell it runs
/// there.
private final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init() {
        queue = DispatchQueue(label: "observation.reader")
        queue.setSpecific(key: queueKey, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// An actor whose code runs on ``QueueExecutor``'s queue.
private actor QueueActor {
    private let executor = QueueExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func subscribe(_ subscriber: TestSubscriber<Int, Never>, to probe: IsolationProbe) {
        probe.observationPublisher(for: \.count).subscribe(subscriber)
    }
}

/// Counts the reads of its property made on ``QueueActor``'s queue and elsewhere.
@Observable
private final class IsolationProbe: @unchecked Sendable {
    @ObservationIgnored let readsOnTheActor = LockedValue(0)
    @ObservationIgnored let readsOffTheActor = LockedValue(0)
    @ObservationIgnored private let storage = LockedValue(0)

    var count: Int {
        get {
            access(keyPath: \.count)
            if DispatchQueue.getSpecific(key: queueKey) == true {
                readsOnTheActor.withLock { $0 += 1 }
            } else {
                readsOffTheActor.withLock { $0 += 1 }
            }
            return storage.current
        }
        set {
            withMutation(keyPath: \.count) { storage.set(newValue) }
        }
    }
}
