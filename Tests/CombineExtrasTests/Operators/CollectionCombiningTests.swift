// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

/// What `Collection.zip()` and `Collection.combineLatest()` have in common.
@Suite("Collection.zip() and combineLatest()")
struct CollectionCombiningTests {
    enum Operator: String, CaseIterable, CustomTestStringConvertible {
        case zip
        case combineLatest

        var testDescription: String { rawValue }

        func apply<P: Publisher>(to publishers: [P]) -> AnyPublisher<[P.Output], P.Failure> {
            switch self {
            case .zip: publishers.zip()
            case .combineLatest: publishers.combineLatest()
            }
        }
    }

    @Test(arguments: Operator.allCases)
    func aSinglePublisherGivesOneElementArrays(_ combining: Operator) {
        let subscriber = TestSubscriber<[Int], Never>()
        combining.apply(to: [[1, 2].publisher]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([1]), .value([2]), .completion(.finished)])
    }

    @Test(arguments: Operator.allCases)
    func anEmptyCollectionFinishesAtOnce(_ combining: Operator) {
        let subscriber = TestSubscriber<[Int], Never>()
        combining.apply(to: [Just<Int>]()).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test(arguments: Operator.allCases)
    func cancelCancelsEveryPublisherOnce(_ combining: Operator) {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        combining.apply(to: publishers).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(publishers.map(\.cancelCount) == [1, 1, 1])
        publishers[0].send(1)
        #expect(subscriber.events == [.subscription])
    }

    @Test(arguments: Operator.allCases)
    func cancellingInsideReceiveSubscriptionSubscribesToNothing(_ combining: Operator) {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>(onSubscription: { $0.cancel() })
        combining.apply(to: publishers).subscribe(subscriber)
        #expect(publishers.map(\.subscriptionCount) == [0, 0, 0])
    }

    /// The two-publisher operators of the core, as arrays: what the collection forms must match.
    func pairwise(
        _ combining: Operator, _ first: PassthroughSubject<Int, Never>, _ second: PassthroughSubject<Int, Never>
    )
        -> AnyPublisher<[Int], Never>
    {
        switch combining {
        case .zip: first.zip(second).map { [$0, $1] }.eraseToAnyPublisher()
        case .combineLatest: first.combineLatest(second).map { [$0, $1] }.eraseToAnyPublisher()
        }
    }

    @Test(arguments: Operator.allCases)
    func aSubscriberSendingFromItsOwnReceiveGetsWhatTheCoreGives(_ combining: Operator) {
        // Re-entrancy: the subscriber publishes into the upstreams from inside `receive(_:)`.
        // zip delivers the array that makes at once, nested in that call; combineLatest makes
        // no array from inside the subscriber's call (Apple's rule): the same arrays in the same
        // order as the core's two-publisher operator.
        func run(_ build: ([PassthroughSubject<Int, Never>]) -> AnyPublisher<[Int], Never>) -> ([[Int]], Int) {
            let subjects = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
            let depth = LockedValue(0)
            let deepest = LockedValue(0)
            let subscriber = TestSubscriber<[Int], Never>(onValue: { values in
                depth.increment()
                deepest.withLock { $0 = max($0, depth.current) }
                if values[0] < 3 {
                    subjects[0].send(values[0] + 1)
                    subjects[1].send(values[1] + 1)
                }
                depth.withLock { $0 -= 1 }
                return .none
            })
            build(subjects).subscribe(subscriber)
            subjects[0].send(1)
            subjects[1].send(1)
            #expect(subscriber.violations.isEmpty)
            return (subscriber.values, deepest.current)
        }
        let (collection, depth) = run { combining.apply(to: $0) }
        let (core, coreDepth) = run { pairwise(combining, $0[0], $0[1]) }
        #expect(collection.first == [1, 1])
        #expect(collection == core)
        #expect(depth == coreDepth)
        switch combining {
        case .zip: #expect(depth > 1)
        case .combineLatest: #expect(collection == [[1, 1]])
        }
    }

    @Test(arguments: Operator.allCases)
    func releasesAfterCancelAndAfterCompletion(_ combining: Operator) {
        for ending: Subscribers.Completion<OperatorFailure>? in [nil, .finished, .failure(OperatorFailure(code: 1))] {
            let publishers = (0..<2).map { _ in TestPublisher<Int, OperatorFailure>() }
            expectReleased(
                attach: { (token, subscriber: AnySubscriber<[Int], OperatorFailure>) in
                    combining.apply(to: publishers.map { $0.handleEvents(receiveOutput: { _ in _ = token }) })
                        .subscribe(subscriber)
                    publishers[0].send(1)
                },
                end: { subscriber in
                    switch ending {
                    case nil: subscriber.cancel()
                    case .failure(let failure)?: publishers[1].send(completion: .failure(failure))
                    case .finished?:
                        // combineLatest finishes once both have; zip once the one without a
                        // value to pair has (the other is cancelled then).
                        publishers[1].send(completion: .finished)
                        publishers[0].send(completion: .finished)
                    }
                })
        }
    }
}
