// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

@Suite("Just, Empty, Fail, Optional.Publisher, Result.Publisher: demand and lifetime")
struct ImmediatePublisherBehaviourTests {
    @Test func justGivesEverySubscriberItsValueOnItsOwnRequest() {
        let just = Just("a")
        let eager = TestSubscriber<String, Never>()
        let lazy = TestSubscriber<String, Never>(initialDemand: .none)
        just.subscribe(eager)
        just.subscribe(lazy)
        #expect(eager.events == [.subscription, .value("a"), .completion(.finished)])
        #expect(lazy.events == [.subscription])
        lazy.request(.max(3))
        lazy.request(.max(1))  // after completion: nothing more
        #expect(lazy.events == [.subscription, .value("a"), .completion(.finished)])
        #expect(eager.violations.isEmpty)
        #expect(lazy.violations.isEmpty)
    }

    @Test func justReleasesItsSubscriberAfterCompletionAndAfterCancel() {
        weak var completed: TestSubscriber<Int, Never>?
        weak var cancelled: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            completed = subscriber
            Just(1).subscribe(subscriber)
            #expect(subscriber.completion == .finished)
        }
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            cancelled = subscriber
            Just(1).subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(completed == nil)
        #expect(cancelled == nil)
    }

    @Test func justWithoutDemandOrCancelKeepsItsSubscriber() {
        // The counterpart of the release test: while the subscription is live the subscriber
        // is kept, so the weak-reference checks above can fail.
        weak var waiting: TestSubscriber<Int, Never>?
        let subscription: Subscription?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            waiting = subscriber
            Just(1).subscribe(subscriber)
            subscription = subscriber.subscription
        }
        #expect(waiting != nil)
        subscription?.cancel()
        #expect(waiting == nil)
    }

    @Test func emptyBothInitialisersAndTheirFlag() {
        let typed = Empty(completeImmediately: true, outputType: String.self, failureType: CoreTestError.self)
        #expect(typed.completeImmediately)
        #expect(!Empty<Int, Never>(completeImmediately: false).completeImmediately)
        let subscriber = TestSubscriber<String, CoreTestError>(initialDemand: .none)
        typed.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        let silent = TestSubscriber<Int, Never>()
        Empty<Int, Never>(completeImmediately: false).subscribe(silent)
        silent.request(.max(1))
        #expect(silent.events == [.subscription])
        #expect(silent.violations.isEmpty)
    }

    @Test func failBothInitialisersFailEverySubscriberWithoutDemand() {
        let byError = Fail<String, CoreTestError>(error: CoreTestError(code: 1))
        let byType = Fail(outputType: String.self, failure: CoreTestError(code: 1))
        #expect(byError == byType)
        #expect(byType.error == CoreTestError(code: 1))
        for fail in [byError, byType] {
            for _ in 0..<2 {
                let subscriber = TestSubscriber<String, CoreTestError>(initialDemand: .none)
                fail.subscribe(subscriber)
                #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 1)))])
            }
        }
    }

    @Test func optionalPublisherWaitsForDemandWithAValueButNotWithout() {
        let some = TestSubscriber<Int, Never>(initialDemand: .none)
        Optional<Int>.Publisher(4).subscribe(some)
        #expect(some.events == [.subscription])
        some.request(.max(1))
        #expect(some.events == [.subscription, .value(4), .completion(.finished)])
        let none = TestSubscriber<Int, Never>(initialDemand: .none)
        Optional<Int>.none.publisher.subscribe(none)
        #expect(none.events == [.subscription, .completion(.finished)])
        #expect(Optional<Int>.Publisher(4).output == 4)
        #expect(Optional<Int>.Publisher(nil).output == nil)
    }

    @Test func resultPublisherInitialisersAndDemand() {
        typealias Published = Result<Int, CoreTestError>.Publisher
        #expect(Published(1).result == .success(1))
        #expect(Published(CoreTestError(code: 2)).result == .failure(CoreTestError(code: 2)))
        #expect(Published(.success(3)).result == .success(3))
        #expect(Published(.failure(CoreTestError(code: 4))) == Published(CoreTestError(code: 4)))
        let waiting = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        Result<Int, CoreTestError>.success(5).publisher.subscribe(waiting)
        #expect(waiting.events == [.subscription])
        waiting.request(.max(1))
        #expect(waiting.events == [.subscription, .value(5), .completion(.finished)])
        let failing = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        Result<Int, CoreTestError>.failure(CoreTestError(code: 6)).publisher.subscribe(failing)
        #expect(failing.events == [.subscription, .completion(.failure(CoreTestError(code: 6)))])
    }

    @Test func requestingNoneFromJustTrapsWithTheRuleBroken() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
                Just(1).subscribe(subscriber)
                subscriber.subscription?.request(.none)
            }
        }
        #expect(standardErrorText(of: result).contains("API Violation: demand must not be zero"))
    }

    /// Unlike `Just`'s, Apple's sequence and `Record` subscriptions take a request for `.none`
    /// without trapping, and it asks for nothing (recorded by the Apple-verified conformance
    /// suite; this test asserted a trap before).
    @Test func requestingNoneFromASequenceAsksForNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(subscriber)
        subscriber.subscription?.request(.none)
        #expect(subscriber.values.isEmpty)
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values == [1])

        let recorded = TestSubscriber<Int, Never>(initialDemand: .none)
        Record<Int, Never>(output: [5], completion: .finished).subscribe(recorded)
        recorded.subscription?.request(.none)
        #expect(recorded.events == [.subscription])
    }

    @Test func justCancelledBeforeDemandDeliversNothingAndComparesByOutput() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
        #expect(Just(1) == Just(1))
        #expect(Just(1).output == 1)
    }
}

@Suite("Future: timing, threads and lifetime")
struct FutureBehaviourTests {
    typealias Promise = Future<Int, CoreTestError>.Promise

    /// A future whose promise the test keeps, to fulfil it later.
    private func pendingFuture() -> (Future<Int, CoreTestError>, LockedValue<Promise?>) {
        let promise = LockedValue<Promise?>(nil)
        let future = Future<Int, CoreTestError> { fulfil in promise.withLock { $0 = fulfil } }
        return (future, promise)
    }

    @Test func closureRunsOnceAtCreationNotPerSubscriber() {
        let runs = LockedValue(0)
        let future = Future<Int, Never> { promise in
            runs.withLock { $0 += 1 }
            promise(.success(1))
        }
        #expect(runs.current == 1)
        for _ in 0..<3 { future.subscribe(TestSubscriber<Int, Never>()) }
        #expect(runs.current == 1)
    }

    @Test func valueWaitsForDemandOfEachSubscriber() {
        let (future, promise) = pendingFuture()
        let waiting = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        let ready = TestSubscriber<Int, CoreTestError>(initialDemand: .max(1))
        future.subscribe(waiting)
        future.subscribe(ready)
        promise.current?(.success(8))
        #expect(ready.events == [.subscription, .value(8), .completion(.finished)])
        #expect(waiting.events == [.subscription])
        waiting.request(.max(1))
        #expect(waiting.events == [.subscription, .value(8), .completion(.finished)])
        #expect(waiting.violations.isEmpty)
        #expect(ready.violations.isEmpty)
    }

    @Test func failureReachesWaitingAndLateSubscribersWithoutDemand() {
        let (future, promise) = pendingFuture()
        let early = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        future.subscribe(early)
        promise.current?(.failure(CoreTestError(code: 1)))
        let late = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        future.subscribe(late)
        for subscriber in [early, late] {
            #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 1)))])
        }
    }

    @Test func onlyTheFirstResultCountsWhateverFollows() {
        let (future, promise) = pendingFuture()
        let early = TestSubscriber<Int, CoreTestError>()
        future.subscribe(early)
        promise.current?(.success(1))
        promise.current?(.failure(CoreTestError(code: 2)))
        promise.current?(.success(3))
        let late = TestSubscriber<Int, CoreTestError>()
        future.subscribe(late)
        for subscriber in [early, late] {
            #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        }
    }

    @Test func promiseCalledAgainFromInsideReceiveIsIgnored() {
        let (future, promise) = pendingFuture()
        let subscriber = TestSubscriber<Int, CoreTestError>(onValue: { value in
            promise.current?(.success(value + 1))
            return .none
        })
        future.subscribe(subscriber)
        promise.current?(.success(0))
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func promiseFulfilledOnAnotherThreadReachesSubscribersThatWaited() async {
        await offThePool {
            let (future, promise) = pendingFuture()
            let done = DispatchGroup()
            let subscribers = (0..<4).map { _ in
                done.enter()
                return TestSubscriber<Int, CoreTestError>(onCompletion: { _ in done.leave() })
            }
            for subscriber in subscribers { future.subscribe(subscriber) }
            nonisolated(unsafe) let fulfil = promise.current  // not Sendable, as Apple's
            DispatchQueue.global().async { fulfil?(.success(11)) }
            #expect(done.wait(timeout: .now() + 10) == .success)
            for subscriber in subscribers {
                #expect(subscriber.events == [.subscription, .value(11), .completion(.finished)])
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func subscriberAndSubscriptionAreReleasedOnCancelBeforeFulfilment() {
        let (future, promise) = pendingFuture()
        weak var weakSubscriber: TestSubscriber<Int, CoreTestError>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, CoreTestError>()
            weakSubscriber = subscriber
            future.subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            #expect(weakSubscription != nil)
        }
        // Waiting for the result, the future keeps its subscriber.
        #expect(weakSubscriber != nil)
        weakSubscriber?.cancel()
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
        promise.current?(.success(1))
        withExtendedLifetime(future) {}
    }

    @Test func subscriberAndSubscriptionAreReleasedAfterTheResult() {
        for result in [Result<Int, CoreTestError>.success(1), .failure(CoreTestError(code: 2))] {
            let (future, promise) = pendingFuture()
            weak var weakSubscriber: TestSubscriber<Int, CoreTestError>?
            weak var weakSubscription: AnyObject?
            do {
                let subscriber = TestSubscriber<Int, CoreTestError>()
                weakSubscriber = subscriber
                future.subscribe(subscriber)
                weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            }
            #expect(weakSubscriber != nil)
            promise.current?(result)
            #expect(weakSubscriber == nil)
            #expect(weakSubscription == nil)
            withExtendedLifetime(future) {}
        }
    }

    @Test func cancelAfterTheResultWaitedForDemandDeliversNothing() {
        let future = Future<Int, Never> { $0(.success(1)) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }
}

extension FutureBehaviourTests {
    @Test func subscribersArrivingWhileAnotherThreadFulfilsEachGetTheValueOnce() async {
        await offThePool {
            for _ in 0..<100 {
                let fulfilled = DispatchSemaphore(value: 0)
                nonisolated(unsafe) var promise: Future<Int, Never>.Promise?
                let future = Future<Int, Never> { promise = $0 }
                let subscribers = (0..<8).map { _ in TestSubscriber<Int, Never>() }
                DispatchQueue.concurrentPerform(iterations: 9) { index in
                    if index == 8 {
                        promise?(.success(index))
                        fulfilled.signal()
                    } else {
                        future.subscribe(subscribers[index])
                    }
                }
                fulfilled.wait()
                for subscriber in subscribers {
                    #expect(subscriber.values == [8])
                    #expect(subscriber.completion == .finished)
                    #expect(subscriber.violations.isEmpty)
                }
            }
        }
    }
}

@Suite("Deferred")
struct DeferredBehaviourTests {
    @Test func createsNothingUntilSubscribedThenOnePublisherPerSubscriber() {
        let made = LockedValue(0)
        let deferred = Deferred { () -> Publishers.Sequence<[Int], Never> in
            let count = made.withLock {
                $0 += 1
                return $0
            }
            return [count, count * 10].publisher
        }
        #expect(made.current == 0)
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>(initialDemand: .max(1))
        deferred.subscribe(first)
        deferred.subscribe(second)
        #expect(made.current == 2)
        #expect(first.events == [.subscription, .value(1), .value(10), .completion(.finished)])
        #expect(second.events == [.subscription, .value(2)])
        #expect(deferred.createPublisher().sequence == [3, 30])
    }
}
