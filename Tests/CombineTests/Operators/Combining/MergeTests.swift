// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("merge, MergeMany")
struct MergeTests {
    @Test func interleavesValuesAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        b.send(4)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func forwardsDemandToEveryUpstreamAndNeverExceedsIt() {
        let (a, b, subscriber) = mergedTestPublishers(initialDemand: .max(1))
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])
        a.send(1)
        b.send(2)  // beyond the demand: held until requested
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    /// As Apple's, a failure cancels every upstream, the one that failed too.
    @Test func failureCancelsEveryUpstreamTheFailedOneToo() {
        let a = TestPublisher<Int, Failure>()
        let b = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        a.merge(with: b).subscribe(subscriber)
        a.send(completion: .failure(Failure(code: 1)))
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
        #expect(subscriber.completion == .failure(Failure(code: 1)))
    }

    // Apple's merge paces its upstreams one value at a time (recorded by suites run against
    // Apple's framework); the tests below pin each rule.

    /// Each upstream is asked for one value when it is subscribed, and for one more through
    /// the result of each of its values that goes on; the subscriber's finite requests do not
    /// reach the upstreams.
    @Test func eachUpstreamIsAskedForOneValueAtATime() {
        let (a, b, subscriber) = mergedTestPublishers(initialDemand: .max(10))
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        subscriber.request(.max(5))
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])
        #expect(subscriber.values == [1, 2])
    }

    /// An `.unlimited` request is the one that reaches the upstreams; from then on their
    /// values ask for nothing more.
    @Test func anUnlimitedRequestReachesEveryUpstream() {
        let (a, b, subscriber) = mergedTestPublishers(initialDemand: .max(1))
        subscriber.request(.unlimited)
        #expect(a.requests == [.max(1), .unlimited])
        #expect(b.requests == [.max(1), .unlimited])
        #expect(a.send(1) == .none)
        let late = TestPublisher<Int, Never>()
        let unlimited = TestSubscriber<Int, Never>()
        late.merge(with: Empty<Int, Never>(completeImmediately: false)).subscribe(unlimited)
        #expect(late.requests == [.unlimited])
    }

    /// Without demand, one value per upstream is kept, a newer one replacing it; a later
    /// request delivers the kept values in upstream order (not arrival order), and asks their
    /// upstreams for one more each.
    @Test func keptValuesAreDeliveredInUpstreamOrder() {
        let (a, b, subscriber) = mergedTestPublishers(initialDemand: .max(1))
        #expect(a.send(100) == .max(1))
        #expect(b.send(1) == .none)
        for value in [200, 300] { #expect(a.send(value) == .none) }
        for value in [2, 3] { #expect(b.send(value) == .none) }
        #expect(subscriber.values == [100])
        subscriber.request(.max(1))
        #expect(subscriber.values == [100, 300])
        #expect(a.requests == [.max(1), .max(1)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [100, 300, 3])
        #expect(b.requests == [.max(1), .max(1)])
        #expect(subscriber.violations.isEmpty)
    }

    /// A request the subscriber makes from inside `receive(_:)` is answered through the
    /// upstreams' results, not sent to them.
    @Test func aRequestFromInsideReceiveIsNotSentUpstream() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let me = LockedValue<TestSubscriber<Int, Never>?>(nil)
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(1),
            onValue: { _ in
                me.current?.request(.max(666))
                return .none
            })
        me.set(subscriber)
        a.merge(with: b).subscribe(subscriber)
        #expect(a.send(1) == .max(1))
        #expect(b.send(2) == .max(1))
        #expect(subscriber.values == [1, 2])
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])
        me.set(nil)
    }

    /// The merge finishes once every upstream has, after the kept values the demand lets
    /// through.
    @Test func finishesAfterTheKeptValues() {
        let (a, b, subscriber) = mergedTestPublishers(initialDemand: .max(1))
        _ = a.send(1)
        _ = b.send(2)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    /// As Apple's, a request for nothing is accepted (no trap), and every arity describes its
    /// subscription as `Merge`.
    @Test func requestingNothingIsAcceptedAndEveryArityIsMerge() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Just(1).merge(with: Just(2), Just(3)).subscribe(subscriber)
        subscriber.subscription?.request(.none)
        #expect(subscriber.subscription.map { "\($0)" } == "Merge")
        let many = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.MergeMany(Just(1), Just(2)).subscribe(many)
        #expect(many.subscription.map { "\($0)" } == "Merge")
        #expect(many.values == [1])
    }

    @Test func cancelCancelsEveryUpstreamOnce() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
    }

    @Test func mergeManyOfSequencesAndOfNothing() {
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.MergeMany([[1, 2].publisher, [3].publisher]).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)

        let empty = TestSubscriber<Int, Never>()
        Publishers.MergeMany<Just<Int>>([]).subscribe(empty)
        #expect(empty.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantSendFromTheSubscriberIsDeliveredInOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = a.merge(with: b).sink { value in
            received.append(value)
            if value == 1 { b.send(10) }
        }
        a.send(1)
        a.send(2)
        #expect(received == [1, 10, 2])
        cancellable.cancel()
    }

    @Test func concurrentSendersNeverOverlapInTheSubscriber() async {
        await offThePool {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            a.merge(with: b).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                let subject = worker.isMultiple(of: 2) ? a : b
                for value in 0..<1_000 { subject.send(worker * 1_000 + value) }
            }
            #expect(subscriber.values.count == 8_000)
            #expect(Set(subscriber.values).count == 8_000)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func wideMergesAndTheirChainingOverloads() {
        let j = (1...8).map { Just($0) }
        var results: [[Int]] = []
        _ = j[0].merge(with: j[1], j[2]).collect().sink { results.append($0) }
        _ = j[0].merge(with: j[1], j[2], j[3], j[4], j[5], j[6], j[7]).collect().sink { results.append($0) }
        let chained:
            Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
                j[0].merge(with: j[1]).merge(with: j[2]).merge(with: j[3], j[4]).merge(with: j[5], j[6], j[7])
        _ = chained.collect().sink { results.append($0) }
        _ = Publishers.Merge5(j[0], j[1], j[2], j[3], j[4]).merge(with: j[5], j[6], j[7]).collect().sink {
            results.append($0)
        }
        #expect(results == [[1, 2, 3], Array(1...8), Array(1...8), Array(1...8)])
        #expect(Publishers.Merge3(j[0], j[1], j[2]) == Publishers.Merge3(j[0], j[1], j[2]))
    }
}

/// Two test publishers merged into a test subscriber that asks for `initialDemand`.
private func mergedTestPublishers(initialDemand: Subscribers.Demand)
    -> (TestPublisher<Int, Never>, TestPublisher<Int, Never>, TestSubscriber<Int, Never>)
{
    let a = TestPublisher<Int, Never>()
    let b = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>(initialDemand: initialDemand)
    a.merge(with: b).subscribe(subscriber)
    return (a, b, subscriber)
}
