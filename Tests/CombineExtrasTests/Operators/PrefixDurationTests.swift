// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("prefix(duration:tolerance:on:options:)")
struct PrefixDurationTests {
    @Test func republishesUntilTheDurationHasPassedThenFinishesAndCancels() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = TestPublisher<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.prefix(duration: .seconds(5), on: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        upstream.send(1)
        scheduler.advance(by: .seconds(3))
        upstream.send(2)
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(999))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .milliseconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.cancelCount == 1)
        upstream.send(3)
        #expect(subscriber.values == [1, 2])
    }

    @Test func theClockStartsAtSubscription() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        let prefixed = upstream.prefix(duration: .seconds(2), on: scheduler)
        scheduler.advance(by: .seconds(10))
        let subscriber = TestSubscriber<Int, Never>()
        prefixed.subscribe(subscriber)
        scheduler.advance(by: .seconds(1))
        upstream.send(1)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func anEarlierCompletionOfTheUpstreamEndsIt() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let finishing = TestSubscriber<Int, OperatorFailure>()
        upstream.prefix(duration: .seconds(5), on: scheduler).subscribe(finishing)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 2)))
        #expect(finishing.events == [.subscription, .value(1), .completion(.failure(OperatorFailure(code: 2)))])
        scheduler.advance(by: .seconds(5))
        #expect(finishing.events.count == 3)
        let finished = TestSubscriber<Int, Never>()
        Just(1).prefix(duration: .seconds(5), on: scheduler).subscribe(finished)
        #expect(finished.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func cancelCancelsTheUpstream() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(duration: .seconds(5), on: scheduler).subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func demandPassesToTheUpstream() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...5).publisher.prefix(duration: .seconds(1), on: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        // No time passes: ending early must let go of everything at once (the timer included).
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.prefix(duration: .seconds(1), tolerance: .zero, on: scheduler, options: nil)
        }
    }

    @Test(arguments: [false, true])
    func endingEarlyCancelsTheTimer(_ byCancel: Bool) {
        // A subscription cancelled (or whose upstream completed) long before the duration
        // ends leaves nothing scheduled: no action holding the pipeline's pieces for an hour.
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = TestPublisher<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.prefix(duration: .seconds(3_600), on: scheduler).subscribe(subscriber)
        #expect(scheduler.pendingActionCount == 1)
        if byCancel { subscriber.cancel() } else { upstream.send(completion: .finished) }
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aDurationOfZeroEndsOnTheSchedulersNextTurn() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        upstream.prefix(duration: .zero, on: scheduler).subscribe(subscriber)
        upstream.send(1)
        scheduler.advance()
        upstream.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func releasesWhenTheDurationEndsIt() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        expectReleased(
            attach: { (token, subscriber: AnySubscriber<Int, Never>) in
                upstream.handleEvents(receiveOutput: { _ in _ = token }).prefix(duration: .seconds(1), on: scheduler)
                    .subscribe(subscriber)
            },
            end: { _ in scheduler.advance(by: .seconds(1)) })
    }
}
