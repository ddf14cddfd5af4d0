// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

private func strings<A, B>(_ pairs: [(A, B)]) -> [String] {
    pairs.map { "\($0.0)\($0.1)" }
}

@Suite("zip, Zip3, Zip4")
struct ZipTests {
    @Test func pairsTheNthValuesOfEachUpstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<(Int, String), Never>()
        a.zip(b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(strings(subscriber.values) == ["1x", "2y"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesWhenAFinishedUpstreamHasNothingLeftToPair() {
        let a = PassthroughSubject<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>()
        a.zip(b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)  // 2 still waits for a partner
        #expect(subscriber.completion == nil)
        b.send(10)
        #expect(subscriber.completion == nil)
        b.send(20)
        #expect(strings(subscriber.values) == ["110", "220"])
        guard case .finished = subscriber.completion else {
            Issue.record("expected finished")
            return
        }
        #expect(b.cancelCount == 1)
    }

    @Test func requestsTheSubscribersDemandFromEachUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(2))
        a.zip(b).subscribe(subscriber)
        #expect(a.requests == [.max(2)])
        #expect(b.requests == [.max(2)])
        for value in 1...2 {
            a.send(value)
            b.send(value * 10)
        }
        subscriber.request(.max(1))
        #expect(a.requests == [.max(2), .max(1)])
        #expect(subscriber.values.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureCancelsTheOthers() {
        let a = TestPublisher<Int, Failure>()
        let b = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<(Int, Int), Failure>()
        a.zip(b).subscribe(subscriber)
        b.send(completion: .failure(Failure(code: 2)))
        // As Apple's, every upstream is cancelled, the failed one too.
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == Failure(code: 2))
    }

    /// As Apple's: demand the subscriber adds while receiving a tuple goes back to the upstream
    /// whose value completed it, as the result of its `receive(_:)`; the others are asked.
    @Test func demandAddedDuringATupleGoesBackToTheUpstreamThatCompletedIt() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1), onValue: { _ in .max(2) })
        a.zip(b).subscribe(subscriber)
        #expect(a.send(1) == .none)
        #expect(b.send(10) == .max(2))
        #expect(a.requests == [.max(1), .max(2)])
        #expect(b.requests == [.max(1)])
        #expect(subscriber.values.map { [$0.0, $0.1] } == [[1, 10]])
    }

    /// The zip of Zip3 and Zip4 describes itself as "Zip", as Apple's.
    @Test func everyArityDescribesItsSubscriptionAsZip() {
        let subscriber = TestSubscriber<(Int, Int, Int), Never>()
        Just(1).zip(Just(2), Just(3)).subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "Zip")
    }

    @Test func zipWithTransformAndThreeAndFourUpstreams() {
        var results: [String] = []
        _ = [1, 2].publisher.zip(["a", "b"].publisher) { "\($0)\($1)" }.sink { results.append($0) }
        _ = [1].publisher.zip(["a"].publisher, [true].publisher).sink { results.append("\($0)\($1)\($2)") }
        _ = [1].publisher.zip(["a"].publisher, [true].publisher, [2.5].publisher).sink {
            results.append("\($0)\($1)\($2)\($3)")
        }
        _ = [1].publisher.zip(["a"].publisher, [true].publisher) { "\($0)-\($1)-\($2)" }.sink { results.append($0) }
        #expect(results == ["1a", "2b", "1atrue", "1atrue2.5", "1-a-true"])
    }

    @Test func cancelCancelsEveryUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let c = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int, Int), Never>()
        a.zip(b, c).subscribe(subscriber)
        subscriber.cancel()
        #expect([a.cancelCount, b.cancelCount, c.cancelCount] == [1, 1, 1])
    }
}

@Suite("combineLatest, CombineLatest3, CombineLatest4")
struct CombineLatestTests {
    @Test func publishesTheLatestOfEachOnceAllHavePublished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let subscriber = TestSubscriber<(Int, String), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        a.send(2)
        b.send("x")
        a.send(3)
        b.send("y")
        #expect(strings(subscriber.values) == ["2x", "3x", "3y"])
    }

    @Test func finishesOnlyWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>()
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(1)
        a.send(completion: .finished)
        b.send(2)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(strings(subscriber.values) == ["11", "12"])
        guard case .finished = subscriber.completion else {
            Issue.record("expected finished")
            return
        }
    }

    @Test func threeSwitchesEnablePlayOnlyWhileAllAreOn() {
        // CombineLatest3 of three switches: the team's scenarios document (docs/SCENARIOS.md §4).
        let first = CurrentValueSubject<Bool, Never>(false)
        let second = CurrentValueSubject<Bool, Never>(false)
        let third = CurrentValueSubject<Bool, Never>(false)
        var playEnabled: [Bool] = []
        let cancellable = Publishers.CombineLatest3(first, second, third)
            .map { $0 && $1 && $2 }
            .sink { playEnabled.append($0) }
        first.value = true
        second.value = true
        third.value = true
        second.value = false
        #expect(playEnabled == [false, false, false, true, false])
        cancellable.cancel()
    }

    @Test func transformVariantsAndFour() {
        var results: [String] = []
        _ = Just(1).combineLatest(Just("a")) { "\($0)\($1)" }.sink { results.append($0) }
        _ = Just(1).combineLatest(Just("a"), Just(true)) { "\($0)\($1)\($2)" }.sink { results.append($0) }
        _ = Just(1).combineLatest(Just("a"), Just(true), Just(2)).sink { results.append("\($0)\($1)\($2)\($3)") }
        _ = Just(1).combineLatest(Just("a"), Just(true), Just(2)) { "\($0)\($1)\($2)\($3)!" }.sink {
            results.append($0)
        }
        #expect(results == ["1a", "1atrue", "1atrue2", "1atrue2!"])
    }

    @Test func valuesBeyondDemandWaitForIt() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(1)
        a.send(2)  // no demand left in the subjects' subscriptions: dropped upstream
        #expect(strings(subscriber.values) == ["11"])
        #expect(subscriber.violations.isEmpty)
    }

    /// As Apple's (recorded by suites run against Apple's framework): a combination made while
    /// the subscriber has no demand is dropped, not kept; a later request delivers nothing until
    /// an upstream sends again, and then combines the latest values.
    @Test func aCombinationWithoutDemandIsDroppedAsApplesIs() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        #expect(a.send(100) == .none)
        #expect(b.send(1) == .none)
        #expect(strings(subscriber.values) == ["1001"])
        for value in [200, 300] { #expect(a.send(value) == .none) }
        for value in [2, 3] { #expect(b.send(value) == .none) }
        subscriber.request(.max(1))
        #expect(strings(subscriber.values) == ["1001"])
        _ = a.send(400)
        #expect(strings(subscriber.values) == ["1001", "4003"])
        #expect(subscriber.violations.isEmpty)
    }

    /// As Apple's: a value an upstream sends while the subscriber is inside its `receive(_:)`
    /// (here the subscriber itself sends it) makes no combination, even with unlimited
    /// demand; it is kept as that upstream's latest value.
    @Test func aValueSentFromInsideReceiveMakesNoCombination() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let nested = LockedValue<Subscribers.Demand?>(nil)
        let subscriber = TestSubscriber<(Int, Int), Never>(
            initialDemand: .unlimited,
            onValue: { value in
                if value.0 == 1 { nested.set(a.send(2)) }
                return .none
            })
        a.combineLatest(b).subscribe(subscriber)
        _ = a.send(1)
        _ = b.send(10)
        #expect(strings(subscriber.values) == ["110"])
        #expect(nested.current == Subscribers.Demand.none)
        _ = b.send(20)
        #expect(strings(subscriber.values) == ["110", "220"])
    }

    /// As Apple's, every arity describes its subscription as `CombineLatest`.
    @Test func everyArityDescribesItsSubscriptionAsCombineLatest() {
        let subscriber2 = TestSubscriber<(Int, Int), Never>()
        Just(1).combineLatest(Just(2)).subscribe(subscriber2)
        let subscriber3 = TestSubscriber<(Int, Int, Int), Never>()
        Just(1).combineLatest(Just(2), Just(3)).subscribe(subscriber3)
        let subscriber4 = TestSubscriber<(Int, Int, Int, Int), Never>()
        Just(1).combineLatest(Just(2), Just(3), Just(4)).subscribe(subscriber4)
        let names = [subscriber2.subscription, subscriber3.subscription, subscriber4.subscription].map {
            $0.map { "\($0)" }
        }
        #expect(names == ["CombineLatest", "CombineLatest", "CombineLatest"])
    }

    @Test func concurrentUpstreamsNeverOverlapInTheSubscriber() async {
        await offThePool {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<(Int, Int), Never>()
            a.combineLatest(b).subscribe(subscriber)
            a.send(0)
            b.send(0)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for value in 1...500 { (worker.isMultiple(of: 2) ? a : b).send(value) }
            }
            #expect(subscriber.values.count == 2_001)
            #expect(subscriber.violations.isEmpty)
        }
    }
}
