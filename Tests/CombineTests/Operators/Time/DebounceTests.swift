// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("debounce")
struct DebounceTests {
    @Test func deliversTheLatestValueAfterAQuietPeriod() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let (subscriber, stamps) = stampingSubscriber(on: scheduler) as (TestSubscriber<Int, Never>, _)
        upstream.debounce(for: .milliseconds(100), scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)
        scheduler.advance(toMilliseconds: 50)
        upstream.send(2)  // restarts the wait: due at 150
        scheduler.advance(toMilliseconds: 149)
        #expect(stamps.current == [])
        scheduler.advance(toMilliseconds: 150)
        upstream.send(3)
        scheduler.advance(toMilliseconds: 400)

        #expect(stamps.current == [Stamped(2, at: 150), Stamped(3, at: 250)])
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.violations.isEmpty)
    }

    // Apple's Debounce cancels the waiting value when the upstream finishes and delivers only
    // the completion, at the scheduler's next turn (a `Future` that succeeds at once, debounced,
    // delivers nothing but `.finished`). Pinned here because it surprises.
    @Test func finishDropsTheWaitingValueAndCompletesOnTheScheduler() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.debounce(for: .milliseconds(100), scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(scheduler.pendingActionCount == 0)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureDropsTheWaitingValue() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>()
        upstream.debounce(for: .milliseconds(100), scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)
        scheduler.advance(toMilliseconds: 40)
        upstream.send(completion: .failure(CoreTestError(code: 1)))
        scheduler.advance(toMilliseconds: 40)
        #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 1)))])
        scheduler.advance(toMilliseconds: 500)
        #expect(subscriber.events.count == 2)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileAValueWaitsDeliversNothingAndCancelsUpstreamOnce() {
        let scheduler = VirtualScheduler()
        let run = cancelWhileWaiting(on: scheduler, sending: [1]) {
            $0.debounce(for: .milliseconds(100), scheduler: scheduler)
        }
        #expect(run.events == [.subscription])
        #expect(run.upstreamCancels == 1)
        #expect(run.violations.isEmpty)
    }

    @Test func aValueDueWithoutDemandIsDropped() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let (subscriber, stamps) =
            stampingSubscriber(on: scheduler, initialDemand: .max(1)) as (TestSubscriber<Int, Never>, _)
        upstream.debounce(for: .milliseconds(100), scheduler: scheduler).subscribe(subscriber)

        upstream.send(1)
        scheduler.advance(toMilliseconds: 100)
        upstream.send(2)
        scheduler.advance(toMilliseconds: 200)  // due, no demand: dropped
        subscriber.request(.max(1))
        scheduler.advance(toMilliseconds: 300)  // not delivered later either
        upstream.send(3)
        scheduler.advance(toMilliseconds: 400)

        #expect(stamps.current == [Stamped(1, at: 100), Stamped(3, at: 400)])
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSubscriberMaySendIntoItsUpstreamFromReceive() {
        let scheduler = VirtualScheduler()
        let run = reentrantRun(on: scheduler) { $0.debounce(for: .milliseconds(10), scheduler: scheduler) }
        #expect(run.stamps == [Stamped(1, at: 10), Stamped(2, at: 20), Stamped(3, at: 30)])
        #expect(run.violations.isEmpty)
    }

    @Test func releasesTheChainOnCancelWhileAValueWaits() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.debounce(for: .milliseconds(10), scheduler: scheduler) }
        probe.subject.send(1)
        #expect(!probe.isReleased)
        probe.cancellable?.cancel()
        #expect(probe.isReleased)
    }

    @Test func releasesTheChainOnCompletion() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.debounce(for: .milliseconds(10), scheduler: scheduler) }
        probe.subject.send(1)
        scheduler.advance(by: .seconds(1))
        probe.subject.send(completion: .finished)
        scheduler.advance()
        #expect(probe.isReleased)
    }
}
