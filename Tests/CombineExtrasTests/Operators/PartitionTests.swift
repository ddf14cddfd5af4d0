// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("partition")
struct PartitionTests {
    @Test func splitsTheValuesByThePredicate() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let (evens, odds) = upstream.partition { $0.isMultiple(of: 2) }
        let matches = TestSubscriber<Int, OperatorFailure>()
        let nonMatches = TestSubscriber<Int, OperatorFailure>()
        evens.subscribe(matches)
        odds.subscribe(nonMatches)
        for value in 1...5 { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(matches.events == [.subscription, .value(2), .value(4), .completion(.finished)])
        #expect(nonMatches.events == [.subscription, .value(1), .value(3), .value(5), .completion(.finished)])
    }

    @Test func theTupleIsLabelledAsCombineExtsIs() {
        let halves: (matches: Just<Int>.Partition, nonMatches: AnyPublisher<Int, Never>) =
            Just(1).partition { $0 > 0 }
        let subscriber = TestSubscriber<Int, Never>()
        halves.matches.subscribe(subscriber)
        #expect(subscriber.values == [1])
    }

    @Test func theUpstreamIsSubscribedOnceAndThePredicateRunsOncePerValue() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        var evaluated: [Int] = []
        let (matches, nonMatches) = upstream.partition { value in
            evaluated.append(value)
            return value > 1
        }
        let first = TestSubscriber<Int, OperatorFailure>()
        let second = TestSubscriber<Int, OperatorFailure>()
        matches.subscribe(first)
        nonMatches.subscribe(second)
        #expect(upstream.subscriptionCount == 1)
        upstream.send(1)
        upstream.send(2)
        #expect(evaluated == [1, 2])
        #expect(first.values == [2])
        #expect(second.values == [1])
    }

    @Test func bothSidesGetTheFailure() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let (matches, nonMatches) = upstream.partition { $0 > 0 }
        let first = TestSubscriber<Int, OperatorFailure>()
        let second = TestSubscriber<Int, OperatorFailure>()
        matches.subscribe(first)
        nonMatches.subscribe(second)
        upstream.send(completion: .failure(OperatorFailure(code: 3)))
        #expect(first.completion == .failure(OperatorFailure(code: 3)))
        #expect(second.completion == .failure(OperatorFailure(code: 3)))
    }

    @Test func theUpstreamIsCancelledWhenBothSidesHaveCancelled() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let (matches, nonMatches) = upstream.partition { $0 > 0 }
        let first = TestSubscriber<Int, OperatorFailure>()
        let second = TestSubscriber<Int, OperatorFailure>()
        matches.subscribe(first)
        nonMatches.subscribe(second)
        first.cancel()
        upstream.send(1)
        upstream.send(-1)
        #expect(first.values.isEmpty)
        #expect(second.values == [-1])
        second.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test func aSideWithoutDemandDoesNotGetValues() {
        let upstream = PassthroughSubject<Int, Never>()
        let (matches, _) = upstream.partition { $0 > 0 }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        matches.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aSynchronousUpstreamRunsToItsEndForTheSideSubscribedFirst() {
        // The documented consequence of sharing: the upstream runs when the first side
        // subscribes, before the other can.
        var evaluated: [Int] = []
        let (matches, _) = [1, 2, 3, 4].publisher.partition { value in
            evaluated.append(value)
            return value.isMultiple(of: 2)
        }
        let first = TestSubscriber<Int, Never>()
        matches.subscribe(first)
        #expect(first.events == [.subscription, .value(2), .value(4), .completion(.finished)])
        #expect(evaluated == [1, 2, 3, 4])
    }

    @Test func releasesAfterCancelAndAfterCompletion() {
        for ending: Subscribers.Completion<OperatorFailure>? in [nil, .finished, .failure(OperatorFailure(code: 1))] {
            let upstream = TestPublisher<Int, OperatorFailure>()
            expectReleased(
                attach: { (token, subscriber: AnySubscriber<Int, OperatorFailure>) in
                    let (matches, _) = upstream.partition { _ in
                        _ = token
                        return true
                    }
                    matches.subscribe(subscriber)
                    upstream.send(1)
                },
                end: { subscriber in
                    if let ending { upstream.send(completion: ending) } else { subscriber.cancel() }
                })
        }
    }
}
