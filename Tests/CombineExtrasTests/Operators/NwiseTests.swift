// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

@testable import CombineExtras

@Suite("nwise")
struct NwiseTests {
    @Test func publishesSlidingWindowsOnceTheFirstIsFull() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2, 3, 4, 5].publisher.nwise(3).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2, 3]), .value([2, 3, 4]), .value([3, 4, 5]), .completion(.finished),
            ])
    }

    @Test func aWindowOfOneIsEachValueAlone() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.nwise(1).subscribe(subscriber)
        #expect(subscriber.values == [[1], [2]])
    }

    @Test func fewerValuesThanTheSizeOnlyFinish() {
        let subscriber = TestSubscriber<[Int], Never>()
        [1, 2].publisher.nwise(3).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func forwardsTheFailure() {
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 1)).prepend(1, 2, 3).nwise(2).subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value([1, 2]), .value([2, 3]), .completion(.failure(OperatorFailure(code: 1))),
            ])
    }

    @Test func demandCountsWindows() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.nwise(3).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))  // not a window yet: one more value asked for
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        let bounded = TestSubscriber<[Int], Never>(initialDemand: .max(2))
        (1...10).publisher.nwise(3).subscribe(bounded)
        #expect(bounded.values == [[1, 2, 3], [2, 3, 4]])
        #expect(bounded.violations.isEmpty)
    }

    @Test func aSizeBelowOneTraps() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                _ = Just(1).nwise(0)
            }
        }
    }

    @Test func contract() {
        // `nwise` is built on `scan`, whose subscription keeps its subscriber until the
        // subscription itself is released: checked with a subscriber that lets go of it.
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9), subscriberKeepsItsSubscription: false) {
            upstream, _ in
            upstream.nwise(2)
        }
    }
}

@Suite("pairwise")
struct PairwiseTests {
    @Test func pairsEachValueWithThePreviousOne() {
        let subscriber = TestSubscriber<String, Never>()
        ["a", "b", "c"].publisher.pairwise().map { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("ab"), .value("bc"), .completion(.finished)])
    }

    @Test func oneValueOnlyFinishes() {
        let subscriber = TestSubscriber<String, Never>()
        Just("a").pairwise().map { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func forwardsTheFailure() {
        let subscriber = TestSubscriber<String, OperatorFailure>()
        Fail<String, OperatorFailure>(error: OperatorFailure(code: 2)).prepend("a", "b").pairwise()
            .map { "\($0)\($1)" }
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("ab"), .completion(.failure(OperatorFailure(code: 2)))])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(1))
        ["a", "b", "c"].publisher.pairwise().map { "\($0)\($1)" }.subscribe(subscriber)
        #expect(subscriber.values == ["ab"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9), subscriberKeepsItsSubscription: false) {
            upstream, _ in
            upstream.pairwise()
        }
    }
}
