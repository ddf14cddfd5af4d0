// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("timeout")
struct TimeoutTests {
    @Test func valuesRestartTheClockAndArriveOnTheScheduler() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let (subscriber, stamps) = stampingSubscriber(on: scheduler) as (TestSubscriber<Int, Never>, _)
        upstream.timeout(.milliseconds(3), scheduler: scheduler).subscribe(subscriber)

        for (value, ms) in [(1, 1), (2, 3), (3, 5)] {
            scheduler.advance(toMilliseconds: ms)
            upstream.send(value)
            #expect(subscriber.values.count == value - 1)  // delivered at the scheduler's next turn
        }
        scheduler.advance(toMilliseconds: 7)
        #expect(subscriber.completion == nil)
        #expect(upstream.cancelCount == 0)
        scheduler.advance(toMilliseconds: 8)

        #expect(stamps.current == [Stamped(1, at: 1), Stamped(2, at: 3), Stamped(3, at: 5)])
        #expect(subscriber.completion == .finished)
        #expect(upstream.cancelCount == 1)
        #expect(scheduler.pendingActionCount == 0)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func customErrorIsTheFailureOnTimeout() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>()
        upstream.timeout(.seconds(2), scheduler: scheduler, customError: { CoreTestError(code: 408) })
            .subscribe(subscriber)

        scheduler.advance(by: .milliseconds(1999))
        #expect(subscriber.events == [.subscription])
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 408)))])
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test(arguments: [
        Subscribers.Completion<CoreTestError>.finished, .failure(CoreTestError(code: 3)),
    ])
    func theUpstreamsCompletionFollowsItsValuesOnTheScheduler(completion: Subscribers.Completion<CoreTestError>) {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>()
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)
        upstream.send(completion: completion)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .completion(completion)])
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events.count == 3)
        #expect(upstream.cancelCount == 0)
        #expect(subscriber.violations.isEmpty)
    }

    // A value still waiting for the scheduler when the clock runs out is dropped: Apple's
    // Timeout checks, at delivery, whether it has timed out already.
    @Test func aValueWaitingWhenTheClockRunsOutIsDropped() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.timeout(.zero, scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)  // restarts a zero clock: both fall due now, the timer first
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileAValueWaitsDeliversNothingAndCancelsUpstreamOnce() {
        let scheduler = VirtualScheduler()
        let run = cancelWhileWaiting(on: scheduler, sending: [1]) { $0.timeout(.seconds(1), scheduler: scheduler) }
        #expect(run.events == [.subscription])
        #expect(run.upstreamCancels == 1)
        #expect(run.violations.isEmpty)
    }

    @Test func demandIsPassedUpstreamAndTheFirstRequestRestartsTheClock() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none, onValue: { _ in .max(1) })
        upstream.timeout(.milliseconds(10), scheduler: scheduler).subscribe(subscriber)

        scheduler.advance(toMilliseconds: 8)
        subscriber.request(.max(2))  // the clock now runs out at 18, not 10
        scheduler.advance(toMilliseconds: 17)
        upstream.send(1)
        scheduler.advance(toMilliseconds: 17)
        #expect(upstream.requests == [.max(2), .max(1)])
        subscriber.request(.max(1))  // not the first request: the clock runs out at 27
        scheduler.advance(toMilliseconds: 26)
        #expect(subscriber.completion == nil)
        scheduler.advance(toMilliseconds: 27)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.requests == [.max(2), .max(1), .max(1)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSubscriberMaySendIntoItsUpstreamFromReceive() {
        let scheduler = VirtualScheduler()
        let run = reentrantRun(on: scheduler) { $0.timeout(.milliseconds(10), scheduler: scheduler) }
        #expect(run.stamps == [Stamped(1, at: 0), Stamped(2, at: 0), Stamped(3, at: 0)])
        #expect(run.violations.isEmpty)
    }

    @Test func releasesTheChainOnCancelWhileAValueWaits() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.timeout(.milliseconds(10), scheduler: scheduler) }
        probe.subject.send(1)
        probe.cancellable?.cancel()
        #expect(probe.isReleased)
    }

    @Test func releasesTheChainOnTimeout() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.timeout(.milliseconds(10), scheduler: scheduler) }
        probe.subject.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(probe.isReleased)
    }
}
