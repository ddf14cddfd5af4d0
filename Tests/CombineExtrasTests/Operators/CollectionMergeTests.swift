// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Collection.merge()")
struct CollectionMergeTests {
    @Test func publishesEveryPublishersValuesAsTheyCome() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        subjects.merge().subscribe(subscriber)
        subjects[2].send(3)
        subjects[0].send(1)
        subjects[1].send(2)
        #expect(subscriber.values == [3, 1, 2])
    }

    @Test func finishesWhenEveryPublisherHasFinished() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        subjects.merge().subscribe(subscriber)
        subjects[0].send(completion: .finished)
        subjects[1].send(completion: .finished)
        #expect(subscriber.completion == nil)
        subjects[2].send(completion: .finished)
        #expect(subscriber.completion == .finished)
    }

    @Test func aFailureFailsItAndCancelsTheOthers() {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        publishers.merge().subscribe(subscriber)
        publishers[1].send(completion: .failure(OperatorFailure(code: 1)))
        #expect(subscriber.completion == .failure(OperatorFailure(code: 1)))
        #expect(publishers[0].cancelCount == 1)
        #expect(publishers[2].cancelCount == 1)
    }

    @Test func cancelCancelsEveryPublisher() {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        publishers.merge().subscribe(subscriber)
        subscriber.cancel()
        #expect(publishers.map(\.cancelCount) == [1, 1, 1])
    }

    @Test func anEmptyCollectionFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, Never>()
        [Just<Int>]().merge().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func manyPublishersWithBoundedDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5))
        (0..<1000).map { Just($0) }.merge().subscribe(subscriber)
        #expect(subscriber.values == [0, 1, 2, 3, 4])
        subscriber.request(.unlimited)
        #expect(subscriber.values == Array(0..<1000))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func releasesAfterCancelAndAfterCompletion() {
        for ending: Subscribers.Completion<OperatorFailure>? in [nil, .finished, .failure(OperatorFailure(code: 1))] {
            let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
            expectReleased(
                attach: { (token, subscriber: AnySubscriber<Int, OperatorFailure>) in
                    publishers.map { $0.handleEvents(receiveOutput: { _ in _ = token }) }.merge().subscribe(subscriber)
                    publishers[0].send(1)
                },
                end: { subscriber in
                    guard let ending else { return subscriber.cancel() }
                    for publisher in publishers { publisher.send(completion: ending) }
                })
        }
    }
}
