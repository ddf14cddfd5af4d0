// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import Combine

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("AnyPublisher, AnySubscriber")
struct TypeErasureTests {
    @Test func anyPublisherForwardsEverything() {
        let subject = PassthroughSubject<Int, Failure>()
        let erased: AnyPublisher<Int, Failure> = subject.eraseToAnyPublisher()
        let subscriber = TestSubscriber<Int, Failure>()
        erased.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(Failure(code: 2)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Failure(code: 2)))])
        #expect(erased.description == "AnyPublisher")
    }

    @Test func erasingTwiceDeliversTheSameEventsAndTheSameSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        let erased = subject.eraseToAnyPublisher()
        let again: AnyPublisher<Int, Never> = erased.eraseToAnyPublisher()
        let wrapped = AnyPublisher(AnyPublisher(erased))
        for publisher in [erased, again, wrapped] {
            let subscriber = TestSubscriber<Int, Never>()
            publisher.subscribe(subscriber)
            subject.send(7)
            #expect(subscriber.values == [7])
            // The subscriber holds the subject's own subscription: no layer per erasure.
            #expect(subscriber.subscription.map { String(describing: $0) } == "PassthroughSubject")
            subscriber.cancel()
        }
    }

    @Test func anySubscriberKeepsTheWrappedIdentifier() {
        let subscriber = TestSubscriber<Int, Never>()
        let erased = AnySubscriber(subscriber)
        #expect(erased.combineIdentifier == subscriber.combineIdentifier)
        #expect(AnySubscriber(erased).combineIdentifier == subscriber.combineIdentifier)
        [1, 2].publisher.subscribe(erased)
        #expect(subscriber.values == [1, 2])
        #expect(erased.description == "TestSubscriber")
    }

    @Test func closureSubscriberCallsItsClosures() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                log.append("subscription")
                subscription.request(.max(1))
            },
            receiveValue: { value in
                log.append("value \(value)")
                return .max(1)
            },
            receiveCompletion: { _ in log.append("finished") })
        [1, 2].publisher.subscribe(subscriber)
        #expect(log == ["subscription", "value 1", "value 2", "finished"])
        #expect(subscriber.description == "Anonymous AnySubscriber")
    }

    @Test func closureSubscriberWithoutClosuresIgnoresEvents() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = AnySubscriber<Int, Never>()
        upstream.subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.requests.isEmpty)
    }

    @Test func anySubscriberFromASubjectFeedsIt() {
        let subject = PassthroughSubject<Int, Never>()
        let downstream = TestSubscriber<Int, Never>()
        subject.subscribe(downstream)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(AnySubscriber(subject))
        #expect(upstream.requests == [.unlimited])
        upstream.send(5)
        upstream.send(completion: .finished)
        #expect(downstream.events == [.subscription, .value(5), .completion(.finished)])
    }
}

@Suite("AnyPublisher's layout, as Apple's")
struct AnyPublisherLayoutTests {
    /// Apple's `AnyPublisher` is one object reference, and erasing it again keeps the same
    /// object; code tested on Apple's platforms may rely on both.
    @Test func anyPublisherIsOneSharedReference() {
        let subject = PassthroughSubject<Int, Never>()
        let once = subject.eraseToAnyPublisher()
        let twice = AnyPublisher(once)
        #expect(MemoryLayout<AnyPublisher<Int, Never>>.size == MemoryLayout<AnyObject>.size)
        let onceObject = ObjectIdentifier(unsafeBitCast(once, to: AnyObject.self))
        let twiceObject = ObjectIdentifier(unsafeBitCast(twice, to: AnyObject.self))
        #expect(onceObject == twiceObject)
        #expect(twice.description == "AnyPublisher")
        #expect(twice.playgroundDescription as? String == "AnyPublisher")
        let subscriber = TestSubscriber<Int, Never>()
        twice.subscribe(subscriber)
        subject.send(3)
        #expect(subscriber.values == [3])
    }
}
