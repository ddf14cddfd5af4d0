// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
    @Test func dropsValuesForSubscribersWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)  // no demand: dropped, not buffered
        subscriber.request(.max(1))
        subject.send(3)
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func completionReachesSubscribersWithoutDemand() {
        let subject = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        subject.subscribe(subscriber)
        subject.send(completion: .failure(Failure(code: 1)))
        subject.send(completion: .finished)
        subject.send(5)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 1)))])
    }

    @Test func lateSubscriberGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func deliversToSubscribersInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var order: [String] = []
        let cancellables = ["a", "b", "c"].map { name in subject.sink { order.append("\(name)\($0)") } }
        subject.send(1)
        #expect(order == ["a1", "b1", "c1"])
        cancellables[1].cancel()
        subject.send(2)
        #expect(order == ["a1", "b1", "c1", "a2", "c2"])
        // Kept to here: in a release build the array's lifetime may end at its last use above,
        // and the other two cancellables would cancel their subscriptions before the send.
        withExtendedLifetime(cancellables) {}
    }

    @Test func cancelRemovesTheSubscriberAndReleasesIt() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            subscriber.cancel()
            subject.send(2)
            #expect(subscriber.values == [1])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func reentrantSendFromASinkIsDeliveredNested() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let cancellable = subject.sink { value in
            log.append("begin \(value)")
            if value < 3 { subject.send(value + 1) }
            log.append("end \(value)")
        }
        subject.send(1)
        #expect(log == ["begin 1", "begin 2", "begin 3", "end 3", "end 2", "end 1"])
        cancellable.cancel()
    }

    @Test func upstreamSubscriptionsAreAskedOnceSomeoneHasDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests.isEmpty)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        upstream.send(4)
        #expect(subscriber.values == [4])
        connection.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test func subjectSubscribedLaterToUpstreamRequestsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests == [.unlimited])
        upstream.send(completion: .finished)
        #expect(subscriber.completion == .finished)
        withExtendedLifetime(connection) {}
    }

    @Test func voidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let cancellable = subject.sink { count += 1 }
        subject.send()
        #expect(count == 1)
        cancellable.cancel()
    }

    @Test func manyThreadsSendingEveryValueArrivesOnceAndCallsNeverOverlap() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let subscribers = (0..<4).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in subscribers {
                subject.subscribe(subscriber)
            }
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for value in 0..<1_000 { subject.send(worker * 1_000 + value) }
            }
            for subscriber in subscribers {
                #expect(subscriber.values.count == 8_000)
                #expect(Set(subscriber.values) == Set(0..<8_000))
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func concurrentSubscribeCancelAndSend() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let stable = TestSubscriber<Int, Never>()
            subject.subscribe(stable)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for value in 0..<500 {
                    if worker.isMultiple(of: 2) {
                        subject.send(value)
                    } else {
                        let transient = TestSubscriber<Int, Never>()
                        subject.subscribe(transient)
                        transient.cancel()
                        #expect(transient.violations.isEmpty)
                    }
                }
            }
            subject.send(completion: .finished)
            #expect(stable.values.count == 2_000)
            #expect(stable.completion == .finished)
            #expect(stable.violations.isEmpty)
        }
    }
    @Test func eachSubscriberGetsValuesWithinItsOwnDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let none = TestSubscriber<Int, Never>(initialDemand: .none)
        let two = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let growing = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        for subscriber in [none, two, growing] { subject.subscribe(subscriber) }
        for value in 1...5 { subject.send(value) }
        #expect(none.values.isEmpty)
        #expect(two.values == [1, 2])
        #expect(growing.values == [1, 2, 3, 4, 5])
        two.request(.max(1))
        subject.send(6)
        #expect(two.values == [1, 2, 6])
        for subscriber in [none, two, growing] { #expect(subscriber.violations.isEmpty) }
    }

    @Test func completionGoesToEverySubscriberOnceWhateverItsDemand() {
        let subject = PassthroughSubject<Int, CoreTestError>()
        let subscribers = [Subscribers.Demand.none, .max(1), .unlimited].map {
            TestSubscriber<Int, CoreTestError>(initialDemand: $0)
        }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        subject.send(completion: .failure(CoreTestError(code: 1)))
        subject.send(completion: .finished)
        subject.send(1)
        for subscriber in subscribers {
            #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 1)))])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func lateSubscriberAfterAFailureGetsItAtOnce() {
        let subject = PassthroughSubject<Int, CoreTestError>()
        subject.send(completion: .failure(CoreTestError(code: 4)))
        let late = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.failure(CoreTestError(code: 4)))])
    }

    @Test func valuesReachSubscribersInSubscriptionOrderAfterCancellations() {
        let subject = PassthroughSubject<Int, Never>()
        let log = LockedValue<[String]>([])
        let subscribers = (0..<20).map { index in
            TestSubscriber<Int, Never>(onValue: { value in
                log.append("\(index):\(value)")
                return .none
            })
        }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        // Cancel most of them so the subject compacts its list, then add one at the end.
        for (index, subscriber) in subscribers.enumerated() where index % 4 != 0 { subscriber.cancel() }
        let last = TestSubscriber<Int, Never>(onValue: { value in
            log.append("last:\(value)")
            return .none
        })
        subject.subscribe(last)
        subject.send(1)
        #expect(log.current == ["0:1", "4:1", "8:1", "12:1", "16:1", "last:1"])
    }

    @Test func cancelStopsValuesAndCompletionForThatSubscriberOnly() {
        let subject = PassthroughSubject<Int, Never>()
        let leaving = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        subject.subscribe(leaving)
        subject.subscribe(staying)
        subject.send(1)
        leaving.cancel()
        leaving.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(leaving.events == [.subscription, .value(1)])
        #expect(staying.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func subscriptionAndSubscriberAreReleasedOnCancelAndOnCompletionWhileTheSubjectLives() {
        let subject = PassthroughSubject<Int, Never>()
        weak var cancelledSubscriber: TestSubscriber<Int, Never>?
        weak var cancelledSubscription: AnyObject?
        weak var finishedSubscriber: TestSubscriber<Int, Never>?
        weak var finishedSubscription: AnyObject?
        do {
            let cancelled = TestSubscriber<Int, Never>()
            let finished = TestSubscriber<Int, Never>()
            subject.subscribe(cancelled)
            subject.subscribe(finished)
            cancelledSubscriber = cancelled
            finishedSubscriber = finished
            cancelledSubscription = cancelled.subscription.map { $0 as AnyObject }
            finishedSubscription = finished.subscription.map { $0 as AnyObject }
        }
        #expect(cancelledSubscriber != nil)
        #expect(finishedSubscriber != nil)
        cancelledSubscriber?.cancel()
        #expect(cancelledSubscriber == nil)
        #expect(cancelledSubscription == nil)
        #expect(finishedSubscriber != nil)
        subject.send(completion: .finished)
        #expect(finishedSubscriber == nil)
        #expect(finishedSubscription == nil)
        withExtendedLifetime(subject) {}
    }

    @Test func reentrantSendIsDeliveredNestedWithoutDeadlock() {
        let subject = PassthroughSubject<Int, Never>()
        let log = LockedValue<[String]>([])
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            log.append("in \(value)")
            if value == 1 { subject.send(2) }
            log.append("out \(value)")
            return .none
        })
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(log.current == ["in 1", "in 2", "out 2", "out 1"])
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func reentrantCompletionFromReceiveEndsTheStream() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in
            subject.send(completion: .finished)
            return .none
        })
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func upstreamIsAskedForUnlimitedOnlyOnceADownstreamRequests() {
        let subject = PassthroughSubject<Int, Never>()
        let waiting = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(waiting)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.subscriptionCount == 1)
        #expect(upstream.requests.isEmpty)
        waiting.request(.max(1))
        #expect(upstream.requests == [.unlimited])
        waiting.request(.max(1))
        let other = TestSubscriber<Int, Never>()
        subject.subscribe(other)
        #expect(upstream.requests == [.unlimited])
        upstream.send(1)
        #expect(waiting.values == [1])
        #expect(other.values == [1])
        // A second upstream, arriving after demand exists, is asked at once.
        let second = TestPublisher<Int, Never>()
        let secondConnection = second.subscribe(subject)
        #expect(second.requests == [.unlimited])
        withExtendedLifetime((connection, secondConnection)) {}
    }

    @Test func subscribeSubjectReturnsACancellableThatCancelsUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let downstream = TestSubscriber<Int, Never>()
        subject.subscribe(downstream)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        upstream.send(1)
        #expect(upstream.cancelCount == 0)
        connection.cancel()
        connection.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(!upstream.hasSubscriber)
        subject.send(2)  // the subject itself stays usable
        #expect(downstream.values == [1, 2])

        let released = TestPublisher<Int, Never>()
        do {
            _ = released.subscribe(subject)  // dropping the cancellable cancels too
        }
        #expect(released.cancelCount == 1)
    }

    @Test func upstreamCompletionCompletesTheSubjectsSubscribers() {
        let subject = PassthroughSubject<Int, CoreTestError>()
        let downstream = TestSubscriber<Int, CoreTestError>()
        subject.subscribe(downstream)
        let upstream = TestPublisher<Int, CoreTestError>()
        let connection = upstream.subscribe(subject)
        upstream.send(1)
        upstream.send(completion: .failure(CoreTestError(code: 2)))
        subject.send(3)
        #expect(downstream.events == [.subscription, .value(1), .completion(.failure(CoreTestError(code: 2)))])
        withExtendedLifetime(connection) {}
    }
}

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    @Test func currentValueGoesOutOnTheFirstRequest() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subject.value = 2
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
        subject.send(3)  // no demand left: dropped
        subject.value = 4
        // As Apple's: a subscriber that missed a value gets the current one on its next request.
        subscriber.request(.max(1))
        #expect(subscriber.values == [2, 4])
        subject.value = 5
        #expect(subscriber.values == [2, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func valueGetAndSetSends() {
        let subject = CurrentValueSubject<String, Never>("a")
        var values: [String] = []
        let cancellable = subject.sink { values.append($0) }
        subject.value = "b"
        subject.send("c")
        #expect(subject.value == "c")
        #expect(values == ["a", "b", "c"])
        cancellable.cancel()
    }

    @Test func afterCompletionSendsAreIgnored() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 2
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.finished)])
    }

    @Test func optionalValuesIncludingNil() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        var values: [Int?] = []
        let cancellable = subject.sink { values.append($0) }
        subject.value = 1
        subject.value = nil
        #expect(values == [nil, 1, nil])
        cancellable.cancel()
    }
    @Test func currentValueWaitsForTheFirstRequest() {
        let subject = CurrentValueSubject<Int, Never>(5)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5)])
        subject.send(6)  // demand used up: dropped, so the next request delivers the current value
        subscriber.request(.max(2))
        subject.send(7)
        #expect(subscriber.values == [5, 6, 7])
        #expect(subject.value == 7)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func eachNewSubscriberStartsFromTheValueAtItsFirstRequest() {
        let subject = CurrentValueSubject<String, Never>("a")
        let first = TestSubscriber<String, Never>()
        subject.subscribe(first)
        subject.value = "b"
        let second = TestSubscriber<String, Never>()
        subject.subscribe(second)
        subject.send("c")
        #expect(first.values == ["a", "b", "c"])
        #expect(second.values == ["b", "c"])
    }

    @Test func settingValueSendsAndReadingReturnsIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.value = 1
        #expect(subject.value == 1)
        subject.value += 1
        #expect(subject.value == 2)
        subject.send(3)
        #expect(subject.value == 3)
        #expect(subscriber.values == [0, 1, 2, 3])
    }

    @Test func afterCompletionSendIsIgnoredAndDoesNotChangeTheValue() {
        // Apple: send(_:) on a completed subject does nothing (OpenCombine's compatibility
        // test `testSendValueAfterCompletion`, run against Apple's Combine).
        let subject = CurrentValueSubject<Int, CoreTestError>(1)
        let subscriber = TestSubscriber<Int, CoreTestError>()
        subject.subscribe(subscriber)
        subject.send(completion: .failure(CoreTestError(code: 1)))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subject.value == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(CoreTestError(code: 1)))])
        let late = TestSubscriber<Int, CoreTestError>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.failure(CoreTestError(code: 1)))])
    }

    @Test func afterCompletionSettingValueStoresItButSendsNothing() {
        // Apple: the `value` setter stores the new value even after completion, though
        // nothing is delivered (OpenCombine's compatibility test
        // `testChangeValueAfterCompletion`, run against Apple's Combine, expects 42).
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 42
        #expect(subject.value == 42)
        #expect(subscriber.events == [.subscription, .value(0), .completion(.finished)])
    }

    @Test func upstreamSubscriptionIsAskedForUnlimitedAtOnce() {
        // Unlike PassthroughSubject, Apple's CurrentValueSubject requests `.unlimited` from
        // every upstream subscription as soon as it receives it, subscribers or not
        // (OpenCombine's compatibility tests `testSendSubscription` and
        // `testCancelsUpstreamSubscriptionsOnDeinit`).
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests == [.unlimited])
        upstream.send(4)
        #expect(subject.value == 4)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        #expect(subscriber.values == [4])
        withExtendedLifetime(connection) {}
    }

    @Test func cancelReleasesTheSubscriberAndStopsDelivery() {
        let subject = CurrentValueSubject<Int, Never>(0)
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subscriber.cancel()
            subject.send(1)
            #expect(subscriber.values == [0])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func reentrantSetFromReceiveIsDeliveredNested() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value < 3 { subject.value = value + 1 }
            return .none
        })
        subject.subscribe(subscriber)
        #expect(subscriber.values == [0, 1, 2, 3])
        #expect(subject.value == 3)
        #expect(subscriber.violations.isEmpty)
    }
}
