// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("collect(_:options:) by time")
struct CollectByTimeTests {
    /// Sends 1…8 at 0, 1, 3, 6, 7, 9, 10 and 11 ms (`ab-c--de-fgh`), finishes at 16 ms.
    private func run(_ strategy: Publishers.TimeGroupingStrategy<VirtualScheduler>, on scheduler: VirtualScheduler)
        -> (stamps: [Stamped<[Int]>], subscriber: TestSubscriber<[Int], Never>)
    {
        let upstream = TestPublisher<Int, Never>()
        let (subscriber, stamps) = stampingSubscriber(on: scheduler) as (TestSubscriber<[Int], Never>, _)
        upstream.collect(strategy).subscribe(subscriber)
        for (value, ms) in [(1, 0), (2, 1), (3, 3), (4, 6), (5, 7), (6, 9), (7, 10), (8, 11)] {
            scheduler.advance(toMilliseconds: ms)
            upstream.send(value)
        }
        scheduler.advance(toMilliseconds: 16)
        upstream.send(completion: .finished)
        scheduler.advance(toMilliseconds: 16)
        return (stamps.current, subscriber)
    }

    @Test func byTimePublishesWhatWasCollectedEachInterval() {
        let scheduler = VirtualScheduler()
        let (stamps, subscriber) = run(.byTime(scheduler, .milliseconds(4)), on: scheduler)
        #expect(stamps == [Stamped([1, 2, 3], at: 4), Stamped([4, 5], at: 8), Stamped([6, 7, 8], at: 12)])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func byTimeOrCountAlsoPublishesAFullCollectionAndRestartsTheTimer() {
        let scheduler = VirtualScheduler()
        let (stamps, subscriber) = run(.byTimeOrCount(scheduler, .milliseconds(4), 2), on: scheduler)
        #expect(
            stamps == [
                Stamped([1, 2], at: 1), Stamped([3], at: 5), Stamped([4, 5], at: 7), Stamped([6, 7], at: 10),
                Stamped([8], at: 14),
            ])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishPublishesThePartialCollectionFirst() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<[Int], CoreTestError>()
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)

        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.finished)])
        #expect(scheduler.pendingActionCount == 0)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureDropsThePartialCollection() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<[Int], CoreTestError>()
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 5)).subscribe(subscriber)

        upstream.send(1)
        upstream.send(completion: .failure(CoreTestError(code: 2)))
        scheduler.advance(by: .seconds(3))
        #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 2)))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileCollectingDeliversNothingAndCancelsUpstreamOnce() {
        let scheduler = VirtualScheduler()
        let run = cancelWhileWaiting(on: scheduler, sending: [1]) {
            $0.collect(.byTime(scheduler, .seconds(1))).map(\.count)
        }
        #expect(run.events == [.subscription])
        #expect(run.upstreamCancels == 1)
        #expect(scheduler.pendingActionCount == 0)
        #expect(run.violations.isEmpty)
    }

    // Apple's byTime asks the upstream for one element per request of the subscriber and
    // for one more with each element it receives (observed on Apple's Combine by CombineX's
    // behaviour tests): in effect unlimited, one at a time.
    @Test func byTimeAsksForOneElementAtATime() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(subscriber)

        #expect(upstream.requests == [.max(1)])
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        scheduler.advance(by: .seconds(1))
        upstream.send(3)  // falls due at 2 s with no demand left: dropped
        scheduler.advance(by: .seconds(1))
        subscriber.request(.max(1))
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [[1, 2]])
        #expect(upstream.requests == [.max(1), .max(1)])
        #expect(subscriber.violations.isEmpty)
    }

    // Apple's byTimeOrCount asks the upstream for `count` elements per collection requested.
    @Test func byTimeOrCountAsksForCountTimesTheDemand() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2), onValue: { _ in .max(1) })
        upstream.collect(.byTimeOrCount(scheduler, .seconds(1), 3)).subscribe(subscriber)

        #expect(upstream.requests == [.max(6)])
        for value in 1...4 { upstream.send(value) }
        // As Apple's, a group filled by count is published on the scheduler, not inside the
        // send that filled it (recorded from Apple's framework by suites run against it).
        #expect(subscriber.values.isEmpty)
        scheduler.advance()
        #expect(subscriber.values == [[1, 2, 3]])
        #expect(upstream.requests == [.max(6), .max(3)])
        subscriber.request(.max(2))
        #expect(upstream.requests == [.max(6), .max(3), .max(6)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSubscriberMaySendIntoItsUpstreamFromReceive() {
        let scheduler = VirtualScheduler()
        let run = reentrantRun(on: scheduler) {
            $0.collect(.byTimeOrCount(scheduler, .milliseconds(10), 1)).map { $0[0] }
        }
        #expect(run.stamps == [Stamped(1, at: 0), Stamped(2, at: 0), Stamped(3, at: 0)])
        #expect(run.violations.isEmpty)
    }

    @Test func releasesTheChainOnCancelWhileCollecting() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.collect(.byTime(scheduler, .milliseconds(10))) }
        probe.subject.send(1)
        probe.cancellable?.cancel()
        #expect(probe.isReleased)
    }

    @Test func releasesTheChainOnCompletion() {
        let scheduler = VirtualScheduler()
        let probe = ReleaseProbe { $0.collect(.byTimeOrCount(scheduler, .milliseconds(10), 4)) }
        probe.subject.send(1)
        probe.subject.send(completion: .finished)
        scheduler.advance()
        #expect(probe.isReleased)
    }
}
