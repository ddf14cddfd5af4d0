// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

@testable import CombineExtras

@Suite("Collection.combineLatest()")
struct CollectionCombineLatestTests {
    @Test func publishesTheLatestValuesOnceEveryPublisherHasOne() {
        let subjects = (0..<3).map { _ in PassthroughSubject<String, OperatorFailure>() }
        let subscriber = TestSubscriber<[String], OperatorFailure>()
        subjects.combineLatest().subscribe(subscriber)
        subjects[0].send("a1")
        subjects[0].send("a2")
        subjects[1].send("b1")
        #expect(subscriber.values.isEmpty)
        subjects[2].send("c1")
        subjects[1].send("b2")
        #expect(subscriber.values == [["a2", "b1", "c1"], ["a2", "b2", "c1"]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesWhenEveryPublisherHasFinished() {
        let subjects = (0..<2).map { _ in PassthroughSubject<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        subjects.combineLatest().subscribe(subscriber)
        subjects[0].send(1)
        subjects[1].send(2)
        subjects[0].send(completion: .finished)
        subjects[1].send(3)  // the finished one's latest value still combines
        #expect(subscriber.completion == nil)
        subjects[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([1, 3]), .completion(.finished)])
    }

    @Test func aPublisherFinishingWithoutAValueLeavesTheOthersRunningUntilAllFinish() {
        // Apple's CombineLatest rule (not RxJS's): no array can be made any more, but the
        // result finishes only with the last publisher, and nothing is cancelled.
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        publishers.combineLatest().subscribe(subscriber)
        publishers[0].send(1)
        publishers[1].send(completion: .finished)
        publishers[2].send(5)
        publishers[0].send(2)
        publishers[0].send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        #expect(publishers.map(\.cancelCount) == [0, 0, 0])
        publishers[2].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(publishers.map(\.cancelCount) == [0, 0, 0])
    }

    @Test func aFailureAfterAValuelessFinishStillFails() {
        let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        publishers.combineLatest().subscribe(subscriber)
        publishers[0].send(completion: .finished)
        publishers[1].send(completion: .failure(OperatorFailure(code: 7)))
        #expect(subscriber.events == [.subscription, .completion(.failure(OperatorFailure(code: 7)))])
    }

    @Test func aFailureFailsAtOnceAndCancelsTheOthers() {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(initialDemand: .max(1))
        publishers.combineLatest().subscribe(subscriber)
        for publisher in publishers { publisher.send(1) }
        publishers[0].send(2)  // beyond the demand: waits, then dropped by the failure
        publishers[2].send(completion: .failure(OperatorFailure(code: 4)))
        #expect(
            subscriber.events == [.subscription, .value([1, 1, 1]), .completion(.failure(OperatorFailure(code: 4)))])
        #expect(publishers[0].cancelCount == 1)
        #expect(publishers[1].cancelCount == 1)
    }

    /// As the core's `combineLatest` (and Apple's): an array made while the subscriber has no
    /// demand is dropped; a later request waits for the next value, which combines the latest.
    @Test func arraysWithoutDemandAreDropped() {
        let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(initialDemand: .max(1))
        publishers.combineLatest().subscribe(subscriber)
        #expect(publishers.map(\.requests) == [[.max(1)], [.max(1)]])
        publishers[0].send(1)
        publishers[1].send(10)
        publishers[0].send(2)  // the test publisher ignores demand: the operator must not
        #expect(subscriber.values == [[1, 10]])
        subscriber.request(.max(1))
        #expect(subscriber.values == [[1, 10]])
        #expect(publishers.map(\.requests) == [[.max(1), .max(1)], [.max(1), .max(1)]])
        publishers[1].send(11)
        #expect(subscriber.values == [[1, 10], [2, 11]])
        #expect(subscriber.violations.isEmpty)
    }

    /// The finish comes once every publisher has finished; arrays nobody asked for are not
    /// waited for.
    @Test func aFinishComesOnceAllHaveFinished() {
        let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(initialDemand: .max(1))
        publishers.combineLatest().subscribe(subscriber)
        publishers[0].send(1)
        publishers[1].send(10)
        publishers[1].send(20)
        publishers[0].send(completion: .finished)
        #expect(subscriber.completion == nil)
        publishers[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 10]), .completion(.finished)])
    }

    @Test func tenThousandPublishersInOneSubscription() async {
        await offThePool {
            let count = 10_000
            let subscriber = TestSubscriber<[Int], Never>()
            (0..<count).map { Just($0) }.combineLatest().subscribe(subscriber)
            #expect(subscriber.values == [Array(0..<count)])
            #expect(subscriber.completion == .finished)
        }
    }

    @Test func publishersOnManyThreadsNeverOverlapInTheSubscriber() async {
        await offThePool {
            let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
            let subscriber = TestSubscriber<[Int], Never>()
            subjects.combineLatest().subscribe(subscriber)
            for subject in subjects { subject.send(0) }
            DispatchQueue.concurrentPerform(iterations: subjects.count) { index in
                for value in 1...2_000 { subjects[index].send(value) }
            }
            #expect(subscriber.values.count == 1 + 4 * 2_000)
            #expect(subscriber.values.last == [2_000, 2_000, 2_000, 2_000])
            #expect(subscriber.violations.isEmpty)
        }
    }
}
