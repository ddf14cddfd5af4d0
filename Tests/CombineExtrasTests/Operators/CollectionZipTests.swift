// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

@testable import CombineExtras

@Suite("Collection.zip()")
struct CollectionZipTests {
    @Test func zipsTheNthValuesInTheCollectionsOrder() {
        let subjects = (0..<3).map { _ in PassthroughSubject<String, OperatorFailure>() }
        let subscriber = TestSubscriber<[String], OperatorFailure>()
        subjects.zip().subscribe(subscriber)
        subjects[0].send("a1")
        subjects[0].send("a2")
        subjects[2].send("c1")
        #expect(subscriber.values.isEmpty)
        subjects[1].send("b1")
        #expect(subscriber.values == [["a1", "b1", "c1"]])
        subjects[1].send("b2")
        subjects[2].send("c2")
        #expect(subscriber.values == [["a1", "b1", "c1"], ["a2", "b2", "c2"]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesWhenAFinishedPublisherHasNoValueLeftAndCancelsTheOthers() {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        publishers.zip().subscribe(subscriber)
        publishers[0].send(1)
        publishers[0].send(2)
        publishers[0].send(completion: .finished)  // two values still to zip
        #expect(subscriber.completion == nil)
        publishers[1].send(10)
        publishers[2].send(100)
        #expect(subscriber.completion == nil)
        publishers[1].send(20)
        publishers[2].send(200)  // the last value of the finished one is used up
        #expect(
            subscriber.events == [.subscription, .value([1, 10, 100]), .value([2, 20, 200]), .completion(.finished)])
        #expect(publishers[1].cancelCount == 1)
        #expect(publishers[2].cancelCount == 1)
        #expect(publishers[0].cancelCount == 0)
    }

    @Test func aPublisherFinishingWithNothingQueuedFinishesAtOnce() {
        let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        publishers.zip().subscribe(subscriber)
        publishers[0].send(1)
        publishers[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(publishers[0].cancelCount == 1)
    }

    @Test func aFailureFailsAtOnceDroppingUndeliveredArrays() {
        let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(initialDemand: .max(1))
        publishers.zip().subscribe(subscriber)
        publishers[0].send(1)
        publishers[0].send(2)
        publishers[1].send(10)
        publishers[1].send(20)  // beyond the demand: waits
        publishers[1].send(completion: .failure(OperatorFailure(code: 3)))
        #expect(
            subscriber.events == [.subscription, .value([1, 10]), .completion(.failure(OperatorFailure(code: 3)))])
        #expect(publishers[0].cancelCount == 1)
    }

    @Test func everyRequestGoesToEveryPublisher() {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(initialDemand: .max(2), onValue: { _ in .max(1) })
        publishers.zip().subscribe(subscriber)
        #expect(publishers.map(\.requests) == [[.max(2)], [.max(2)], [.max(2)]])
        subscriber.request(.max(3))
        #expect(publishers.map(\.requests) == [[.max(2), .max(3)], [.max(2), .max(3)], [.max(2), .max(3)]])
        for publisher in publishers { publisher.send(1) }
        // The demand the subscriber returned from `receive(_:)` goes upstream too.
        #expect(publishers.map(\.requests) == Array(repeating: [.max(2), .max(3), .max(1)], count: 3))
    }

    @Test func aPublisherSubscribingLateIsAskedForEverythingRequested() {
        let scheduler = TestScheduler<VirtualTime, Never>()
        let late = TestPublisher<Int, Never>()
        let early = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2))
        [late.subscribe(on: scheduler).eraseToAnyPublisher(), early.eraseToAnyPublisher()].zip().subscribe(subscriber)
        subscriber.request(.max(1))
        #expect(early.requests == [.max(2), .max(1)])
        #expect(late.subscriptionCount == 0)
        scheduler.advance()
        #expect(late.requests == [.max(3)])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2))
        [(1...5).publisher, (11...15).publisher].zip().subscribe(subscriber)
        #expect(subscriber.values == [[1, 11], [2, 12]])
        subscriber.request(.max(10))
        #expect(subscriber.values.count == 5)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func tenThousandPublishersInOneSubscription() async {
        await offThePool {
            let count = 10_000
            let subscriber = TestSubscriber<[Int], Never>()
            (0..<count).map { [$0, $0 + count].publisher }.zip().subscribe(subscriber)
            #expect(subscriber.values == [Array(0..<count), Array(count..<(2 * count))])
            #expect(subscriber.completion == .finished)
        }
    }

    @Test func publishersOnManyThreadsNeverOverlapInTheSubscriber() async {
        await offThePool {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = TestSubscriber<[Int], Never>()
            subjects.zip().subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: subjects.count) { index in
                for value in 0..<2_000 { subjects[index].send(value) }
            }
            #expect(subscriber.values == (0..<2_000).map { Array(repeating: $0, count: 4) })
            #expect(subscriber.violations.isEmpty)
        }
    }
}
