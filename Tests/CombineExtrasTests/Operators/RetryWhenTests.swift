// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

@testable import CombineExtras

@Suite("retry(_:when:)")
struct RetryWhenTests {
    /// A publisher that fails on its first `failures` subscriptions and then publishes its
    /// attempt number and finishes; it counts its subscriptions.
    private final class Flaky: @unchecked Sendable {
        var subscriptions = 0
        let failures: Int

        init(failures: Int) { self.failures = failures }

        var publisher: AnyPublisher<Int, OperatorFailure> {
            Deferred { [self] () -> AnyPublisher<Int, OperatorFailure> in
                subscriptions += 1
                if subscriptions <= failures {
                    return Fail(error: OperatorFailure(code: subscriptions)).eraseToAnyPublisher()
                }
                return Just(subscriptions).setFailureType(to: OperatorFailure.self).eraseToAnyPublisher()
            }
            .eraseToAnyPublisher()
        }
    }

    @Test func resubscribesWhenTheTriggerPublishes() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let trigger = PassthroughSubject<Void, Never>()
        var failuresSeen: [OperatorFailure] = []
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.retry(1) { failure -> PassthroughSubject<Void, Never> in
            failuresSeen.append(failure)
            return trigger
        }
        .subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 1)))
        #expect(failuresSeen == [OperatorFailure(code: 1)])
        #expect(upstream.subscriptionCount == 1)  // waiting for the trigger
        #expect(subscriber.completion == nil)
        trigger.send(())
        #expect(upstream.subscriptionCount == 2)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func waitsOnTheSchedulerForADelayedTrigger() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let flaky = Flaky(failures: 2)
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        flaky.publisher
            .retry(3) { _ in Just(()).delay(for: .seconds(2), scheduler: scheduler) }
            .subscribe(subscriber)
        #expect(flaky.subscriptions == 1)
        scheduler.advance(by: .seconds(1))
        #expect(flaky.subscriptions == 1)
        scheduler.advance(by: .seconds(1))
        #expect(flaky.subscriptions == 2)
        scheduler.advance(by: .seconds(2))
        #expect(flaky.subscriptions == 3)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func forwardsTheFailureOnceTheRetriesAreUsedUp() {
        let flaky = Flaky(failures: 5)
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        flaky.publisher.retry(2) { _ in Just(()) }.subscribe(subscriber)
        #expect(flaky.subscriptions == 3)
        #expect(subscriber.events == [.subscription, .completion(.failure(OperatorFailure(code: 3)))])
    }

    @Test func zeroOrNegativeRetriesForwardTheFirstFailure() {
        for retries in [0, -1] {
            let flaky = Flaky(failures: 1)
            var triggered = false
            let subscriber = TestSubscriber<Int, OperatorFailure>()
            flaky.publisher.retry(retries) { _ -> Just<Void> in
                triggered = true
                return Just(())
            }
            .subscribe(subscriber)
            #expect(!triggered)
            #expect(subscriber.completion == .failure(OperatorFailure(code: 1)))
        }
    }

    @Test func aTriggerThatFinishesWithoutAValueForwardsTheFailure() {
        let flaky = Flaky(failures: 1)
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        flaky.publisher.retry(3) { _ in Empty<Void, Never>() }.subscribe(subscriber)
        #expect(flaky.subscriptions == 1)
        #expect(subscriber.events == [.subscription, .completion(.failure(OperatorFailure(code: 1)))])
    }

    @Test func aTriggerThatFailsForwardsTheUpstreamsFailure() {
        struct TriggerFailure: Error {}
        let flaky = Flaky(failures: 1)
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        flaky.publisher.retry(3) { _ in Fail<Void, TriggerFailure>(error: TriggerFailure()) }.subscribe(subscriber)
        #expect(flaky.subscriptions == 1)
        #expect(subscriber.events == [.subscription, .completion(.failure(OperatorFailure(code: 1)))])
    }

    @Test func theTriggerIsCancelledAfterItsFirstValue() {
        let flaky = Flaky(failures: 1)
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        flaky.publisher.retry(1) { _ in trigger }.subscribe(subscriber)
        #expect(trigger.requests == [.max(1)])
        trigger.send(())
        #expect(trigger.cancelCount == 1)
        #expect(subscriber.values == [2])
    }

    @Test func manySynchronousRetriesDoNotGrowTheStack() async {
        await offThePool {
            // Each retry starts inside the previous attempt's failure; nested, 100,000 of them
            // would overflow the stack.
            let flaky = Flaky(failures: 100_000)
            let subscriber = TestSubscriber<Int, OperatorFailure>()
            flaky.publisher.retry(100_000) { _ in Just(()) }.subscribe(subscriber)
            #expect(flaky.subscriptions == 100_001)
            #expect(subscriber.events == [.subscription, .value(100_001), .completion(.finished)])
        }
    }

    @Test func aTriggerFiringOnAnotherThreadStartsTheNextAttemptThere() async {
        await offThePool {
            let flaky = Flaky(failures: 2)
            let finished = DispatchSemaphore(value: 0)
            let subscriber = TestSubscriber<Int, OperatorFailure>(onCompletion: { _ in finished.signal() })
            flaky.publisher
                .retry(2) { _ in Just(()).receive(on: DispatchQueue.global()) }
                .subscribe(subscriber)
            #expect(finished.wait(timeout: .now() + 10) == .success)
            #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func cancelWhileWaitingCancelsTheTrigger() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.retry(1) { _ in trigger }.subscribe(subscriber)
        upstream.send(completion: .failure(OperatorFailure(code: 1)))
        subscriber.cancel()
        subscriber.cancel()
        #expect(trigger.cancelCount == 1)
        trigger.send(())
        #expect(upstream.subscriptionCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelWhileRunningCancelsTheUpstream() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.retry(1) { _ in Just(()) }.subscribe(subscriber)
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test func unusedDemandCarriesOverToTheNextAttempt() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(3))
        upstream.retry(1) { _ in trigger }.subscribe(subscriber)
        #expect(upstream.requests == [.max(3)])
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 1)))
        subscriber.request(.max(1))  // while waiting: kept for the next attempt
        trigger.send(())
        #expect(upstream.requests == [.max(3), .max(3)])
    }

    @Test func boundedDemandIsNeverExceededAcrossAttempts() {
        let attempts = Flaky(failures: 1)
        let subscriber = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(2))
        attempts.publisher
            .flatMap { attempt in
                [attempt * 10, attempt * 10 + 1, attempt * 10 + 2].publisher.setFailureType(to: OperatorFailure.self)
            }
            .retry(1) { _ in Just(()) }
            .subscribe(subscriber)
        #expect(subscriber.values == [20, 21])
        subscriber.request(.max(1))
        #expect(subscriber.values == [20, 21, 22])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9), upstreamDemand: .max(2)) {
            upstream, token in
            // No retries left by the time the failure comes, so the failure ends it.
            upstream.retry(0) { _ -> Just<Void> in
                _ = token
                return Just(())
            }
            .eraseToAnyPublisher()
        }
    }

    /// Ends a retry that waits for its trigger: by the trigger finishing, or by a cancel.
    enum WhileWaiting: CaseIterable {
        case triggerFinishes
        case subscriberCancels
    }

    @Test(arguments: WhileWaiting.allCases)
    func releasesWhenEndedWhileWaiting(_ ending: WhileWaiting) {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let trigger = PassthroughSubject<Void, Never>()
        expectReleased(
            attach: { (token, subscriber: AnySubscriber<Int, OperatorFailure>) in
                upstream.retry(1) { _ -> PassthroughSubject<Void, Never> in
                    _ = token
                    return trigger
                }
                .subscribe(subscriber)
                upstream.send(completion: .failure(OperatorFailure(code: 1)))
            },
            end: { subscriber in
                switch ending {
                case .triggerFinishes: trigger.send(completion: .finished)
                case .subscriberCancels: subscriber.cancel()
                }
            })
    }
}
