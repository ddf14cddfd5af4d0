// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

@Suite("AnyPublisher and AnySubscriber behaviour")
struct ErasureBehaviourTests {
    @Test func anyPublisherPassesTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .max(2), onValue: { _ in .max(3) })
        upstream.eraseToAnyPublisher().subscribe(subscriber)
        #expect(upstream.subscriptionCount == 1)
        #expect(upstream.requests == [.max(2)])
        #expect(subscriber.subscription.map { "\($0)" } == "TestPublisher")
        #expect(upstream.send(1) == .max(3))
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func erasingAnAnyPublisherAgainAddsNoLayer() {
        // Observable behaviour of "no double wrapping": however often the publisher is
        // erased, one subscribe reaches the source once, the subscriber holds the source's
        // own subscription, and demand and values go straight through.
        let upstream = TestPublisher<Int, Never>()
        let once = upstream.eraseToAnyPublisher()
        let publishers: [AnyPublisher<Int, Never>] = [
            once.eraseToAnyPublisher(), AnyPublisher(once), AnyPublisher(AnyPublisher(once)).eraseToAnyPublisher(),
        ]
        for (index, publisher) in publishers.enumerated() {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
            publisher.subscribe(subscriber)
            #expect(upstream.subscriptionCount == index + 1)
            #expect(subscriber.subscription.map { "\($0)" } == "TestPublisher")
            #expect("\(publisher)" == "AnyPublisher")
            subscriber.cancel()
        }
        #expect(upstream.requests == [.max(1), .max(1), .max(1)])
        #expect(upstream.cancelCount == 3)
    }

    @Test func anyPublisherSubscribesTheWrappedPublisherPerSubscriber() {
        let subscriptions = LockedValue(0)
        let erased = Deferred { () -> Just<Int> in
            subscriptions.withLock { $0 += 1 }
            return Just(subscriptions.current)
        }.eraseToAnyPublisher()
        #expect(subscriptions.current == 0)
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        erased.subscribe(first)
        erased.subscribe(second)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test func anySubscriberForwardsTheDemandItsSubscriberReturns() {
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>(
            initialDemand: .max(1), onValue: { $0 == 1 ? .max(4) : .none })
        let erased = AnySubscriber(subscriber)
        upstream.subscribe(erased)
        #expect(upstream.requests == [.max(1)])
        #expect(upstream.send(1) == .max(4))
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(CoreTestError(code: 1)))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(CoreTestError(code: 1)))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func closureSubscriberWithOnlySomeClosures() {
        let values = LockedValue<[Int]>([])
        let onlyValues = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: {
                values.append($0)
                return .none
            })
        [1, 2, 3].publisher.subscribe(onlyValues)
        #expect(values.current == [1, 2, 3])

        let completions = LockedValue<[Subscribers.Completion<CoreTestError>]>([])
        let onlyCompletion = AnySubscriber<Int, CoreTestError>(receiveCompletion: { completions.append($0) })
        Fail<Int, CoreTestError>(error: CoreTestError(code: 3)).subscribe(onlyCompletion)
        #expect(completions.current == [.failure(CoreTestError(code: 3))])
        // No receiveSubscription closure: nothing is ever requested.
        let upstream = TestPublisher<Int, CoreTestError>()
        upstream.subscribe(onlyCompletion)
        #expect(upstream.requests.isEmpty)
        #expect(upstream.send(9) == .none)
    }

    @Test func anySubscriberFromASubjectForwardsAFailure() {
        let subject = CurrentValueSubject<Int, CoreTestError>(0)
        let downstream = TestSubscriber<Int, CoreTestError>()
        subject.subscribe(downstream)
        let upstream = TestPublisher<Int, CoreTestError>()
        upstream.subscribe(AnySubscriber(subject))
        #expect(upstream.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(CoreTestError(code: 7)))
        #expect(subject.value == 2)
        #expect(
            downstream.events == [
                .subscription, .value(0), .value(1), .value(2), .completion(.failure(CoreTestError(code: 7))),
            ])
        #expect(downstream.violations.isEmpty)
    }
}
