// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("throttle")
struct ThrottleTests {
    // upstream (interval 4ms):  ab-c----d-ef----   (a…f are 1…6)
    @Test(arguments: [
        (true, [Stamped(1, at: 0), Stamped(3, at: 4), Stamped(4, at: 8), Stamped(6, at: 12)]),
        (false, [Stamped(1, at: 0), Stamped(2, at: 4), Stamped(4, at: 8), Stamped(5, at: 12)]),
    ])
    func deliversOneValuePerInterval(latest: Bool, expected: [Stamped<Int>]) {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let (subscriber, stamps) = stampingSubscriber(on: scheduler) as (TestSubscriber<Int, Never>, _)
        upstream.throttle(for: .milliseconds(4), scheduler: scheduler, latest: latest).subscribe(subscriber)

        for (value, ms) in [(1, 0), (2, 1), (3, 3), (4, 8), (5, 10), (6, 11)] {
            scheduler.advance(toMilliseconds: ms)
            upstream.send(value)
        }
        scheduler.advance(toMilliseconds: 100)

        #expect(stamps.current == expected)
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theFirstValueWaitsForTheSchedulersNextTurn() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(subscriber)

        upstream.send(1)
        #expect(subscriber.values == [])
        scheduler.advance()
        #expect(subscriber.values == [1])
    }

    @Test(arguments: [
        Subscribers.Completion<CoreTestError>.finished, .failure(CoreTestError(code: 7)),
    ])
    func aCompletionWaitsForTheValueBeforeIt(completion: Subscribers.Completion<CoreTestError>) {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>()
        upstream.throttle(for: .milliseconds(4), scheduler: scheduler, latest: true).subscribe(subscriber)

        upstream.send(1)
        scheduler.advance(toMilliseconds: 1)
        upstream.send(2)  // due at 4
        upstream.send(completion: completion)
        scheduler.advance(toMilliseconds: 3)
        #expect(subscriber.events == [.subscription, .value(1)])
        scheduler.advance(toMilliseconds: 4)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(completion)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aCompletionWithNothingWaitingIsDeliveredAtTheNextTurn() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.throttle(for: .seconds(1), scheduler: scheduler, latest: false).subscribe(subscriber)

        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func cancelWhileAValueWaitsDeliversNothingAndCancelsUpstreamOnce() {
        let scheduler = VirtualScheduler()
        let run = cancelWhileWaiting(on: scheduler, sending: [1, 2]) {
            $0.throttle(for: .milliseconds(4), scheduler: scheduler, latest: true)
        }
        #expect(run.events == [.subscription, .value(1)])
        #expect(run.upstreamCancels == 1)
        #expect(run.violations.isEmpty)
    }

    @Test func demandIsReservedWhenAValueIsPicked() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.throttle(for: .milliseconds(4), scheduler: scheduler, latest: true).subscribe(subscriber)

        upstream.send(1)
        upstream.send(2)  // no demand left beyond the one reserved for 1: dropped
        scheduler.advance(toMilliseconds: 10)
        upstream.send(3)  // no demand: dropped
        scheduler.advance(toMilliseconds: 20)
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        upstream.send(4)
        scheduler.advance(toMilliseconds: 30)
        #expect(subscriber.values == [1, 4])
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSubscriberMaySendIntoItsUpstreamFromReceive() {
        let scheduler = VirtualScheduler()
        let run = reentrantRun(on: scheduler) {
            $0.throttle(for: .milliseconds(10), scheduler: scheduler, latest: true)
        }
        #expect(run.stamps == [Stamped(1, at: 0), Stamped(2, at: 10), Stamped(3, at: 20)])
        #expect(run.violations.isEmpty)
    }

    @Test func releasesTheChainOnCancelWhileAValueWaits() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.throttle(for: .milliseconds(10), scheduler: scheduler, latest: true) }
        probe.subject.send(1)
        probe.cancellable?.cancel()
        #expect(probe.isReleased)
        scheduler.advance(by: .seconds(1))
    }

    @Test func releasesTheChainOnCompletion() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.throttle(for: .milliseconds(10), scheduler: scheduler, latest: false) }
        probe.subject.send(1)
        probe.subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(probe.isReleased)
    }
}
