// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

private struct Failure: Error, Equatable, Codable {
    let code: Int
}

@Suite("Just, Empty, Fail, Optional.Publisher, Result.Publisher")
struct SingleValuePublisherTests {
    @Test func justWaitsForDemandThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(Just(1) == Just(1))
        #expect(Just(1).output == 1)
    }

    @Test func justCancelledBeforeDemandDeliversNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func emptyCompletesImmediatelyOrNever() {
        let immediate = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>().subscribe(immediate)
        #expect(immediate.events == [.subscription, .completion(.finished)])
        let never = TestSubscriber<Int, Failure>()
        Empty(completeImmediately: false, outputType: Int.self, failureType: Failure.self).subscribe(never)
        #expect(never.events == [.subscription])
        #expect(Empty<Int, Never>() == Empty<Int, Never>(completeImmediately: true))
        #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
    }

    @Test func failFailsImmediatelyWithoutDemand() {
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        Fail<Int, Failure>(error: Failure(code: 1)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 1)))])
        let other = Fail(outputType: String.self, failure: Failure(code: 2))
        #expect(other.error == Failure(code: 2))
        #expect(Fail<Int, Failure>(error: Failure(code: 1)) == Fail<Int, Failure>(error: Failure(code: 1)))
    }

    @Test func optionalPublisher() {
        let some = TestSubscriber<Int, Never>()
        Optional(3).publisher.subscribe(some)
        #expect(some.events == [.subscription, .value(3), .completion(.finished)])
        let none = TestSubscriber<Int, Never>()
        Optional<Int>.Publisher(nil).subscribe(none)
        #expect(none.events == [.subscription, .completion(.finished)])
    }

    @Test func resultPublisherAllInitialisers() {
        let success = TestSubscriber<Int, Failure>()
        Result<Int, Failure>.Publisher(1).subscribe(success)
        #expect(success.events == [.subscription, .value(1), .completion(.finished)])
        let failure = TestSubscriber<Int, Failure>(initialDemand: .none)
        Result<Int, Failure>.Publisher(Failure(code: 4)).subscribe(failure)
        #expect(failure.events == [.subscription, .completion(.failure(Failure(code: 4)))])
        let fromResult = TestSubscriber<Int, Failure>()
        Result<Int, Failure>.Publisher(.success(2)).subscribe(fromResult)
        #expect(fromResult.values == [2])
    }

    @Test func requestingNoneFromJustTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Just(1).subscribe(AnySubscriber<Int, Never>(receiveSubscription: { $0.request(.none) }))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("API Violation: demand must not be zero"))
    }
}

@Suite("Future, Deferred")
struct FutureDeferredTests {
    final class Counter: @unchecked Sendable {
        var count = 0
    }

    @Test func futureRunsItsClosureAtCreation() {
        let counter = Counter()
        let future = Future<Int, Never> { promise in
            counter.count += 1
            promise(.success(1))
        }
        #expect(counter.count == 1)
        _ = future
    }

    @Test func lateSubscribersGetTheResultAndValueWaitsForDemand() {
        let future = Future<Int, Never> { $0(.success(7)) }
        let early = TestSubscriber<Int, Never>(initialDemand: .none)
        future.subscribe(early)
        #expect(early.events == [.subscription])
        early.request(.max(1))
        #expect(early.events == [.subscription, .value(7), .completion(.finished)])
        let late = TestSubscriber<Int, Never>()
        future.subscribe(late)
        #expect(late.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func failureIsDeliveredWithoutDemand() {
        let future = Future<Int, Failure> { $0(.failure(Failure(code: 3))) }
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 3)))])
    }

    @Test func onlyTheFirstPromiseCallCounts() {
        let future = Future<Int, Never> { promise in
            promise(.success(1))
            promise(.success(2))
        }
        let subscriber = TestSubscriber<Int, Never>()
        future.subscribe(subscriber)
        #expect(subscriber.values == [1])
    }

    @Test func promiseFulfilledFromAnotherThread() {
        let done = DispatchSemaphore(value: 0)
        let future = Future<Int, Never> { promise in
            nonisolated(unsafe) let promise = promise  // not Sendable, as Apple's
            DispatchQueue.global().async {
                promise(.success(42))
            }
        }
        let subscriber = TestSubscriber<Int, Never>(onCompletion: { _ in done.signal() })
        future.subscribe(subscriber)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(subscriber.values == [42])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelBeforeFulfilmentReleasesTheSubscriber() {
        final class Holder: @unchecked Sendable {
            var promise: Future<Int, Never>.Promise?
        }
        let holder = Holder()
        let future = Future<Int, Never> { holder.promise = $0 }
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            future.subscribe(subscriber)
            subscriber.cancel()
        }
        #expect(weakSubscriber == nil)
        holder.promise?(.success(1))
    }

    @Test func concurrentSubscriptionsAndFulfilment() {
        for _ in 0..<100 {
            let holder = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var promise: Future<Int, Never>.Promise?
            let future = Future<Int, Never> { promise = $0 }
            let subscribers = (0..<8).map { _ in TestSubscriber<Int, Never>() }
            DispatchQueue.concurrentPerform(iterations: 9) { index in
                if index == 8 {
                    promise?(.success(index))
                    holder.signal()
                } else {
                    future.subscribe(subscribers[index])
                }
            }
            holder.wait()
            for subscriber in subscribers {
                #expect(subscriber.values == [8])
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test func deferredCreatesAPublisherPerSubscription() {
        let counter = Counter()
        let deferred = Deferred { () -> Just<Int> in
            counter.count += 1
            return Just(counter.count)
        }
        #expect(counter.count == 0)
        var values: [Int] = []
        _ = deferred.sink { values.append($0) }
        _ = deferred.sink { values.append($0) }
        #expect(values == [1, 2])
    }
}

@Suite("Record, Publishers.Sequence")
struct ReplayingPublisherTests {
    @Test func recordAllInitialisers() {
        let recorded = Record<Int, Failure> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(Failure(code: 1)))
        }
        let fromArray = Record<Int, Failure>(output: [1, 2], completion: .failure(Failure(code: 1)))
        let fromRecording = Record(
            recording: Record<Int, Failure>.Recording(output: [1, 2], completion: .failure(Failure(code: 1))))
        for record in [recorded, fromArray, fromRecording] {
            let subscriber = TestSubscriber<Int, Failure>()
            record.subscribe(subscriber)
            #expect(
                subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Failure(code: 1)))])
        }
        let unfinished = Record<Int, Never> { $0.receive(5) }
        #expect(unfinished.recording.completion == .finished)
        #expect(unfinished.recording.output == [5])
    }

    @Test func recordHonoursDemandAndReplaysToEachSubscriber() {
        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let slow = TestSubscriber<Int, Never>(initialDemand: .max(2))
        record.subscribe(slow)
        #expect(slow.values == [1, 2])
        #expect(slow.completion == nil)
        slow.request(.max(1))
        #expect(slow.completion == .finished)
        let again = TestSubscriber<Int, Never>()
        record.subscribe(again)
        #expect(again.values == [1, 2, 3])
    }

    @Test func recordingIsCodable() throws {
        let recording = Record<Int, Failure>.Recording(output: [1, 2], completion: .failure(Failure(code: 3)))
        let data = try JSONEncoder().encode(recording)
        let decoded = try JSONDecoder().decode(Record<Int, Failure>.Recording.self, from: data)
        #expect(decoded.output == [1, 2])
        #expect(decoded.completion == .failure(Failure(code: 3)))
    }

    @Test func sequenceFinishesRightAfterTheLastElement() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        Publishers.Sequence<[Int], Never>(sequence: [1, 2, 3]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func emptySequenceFinishesOnSubscription() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantRequestsFromReceiveKeepOrder() {
        var received: [Int] = []
        var subscription: Subscription?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(1))
            },
            receiveValue: { value in
                received.append(value)
                subscription?.request(.max(1))  // re-entrant: only adds demand
                return .none
            })
        (1...5).publisher.subscribe(subscriber)
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test func cancelMidwayStopsDelivery() {
        final class Box: @unchecked Sendable {
            var subscriber: TestSubscriber<Int, Never>?
        }
        let subscriber = TestSubscriber<Int, Never>(onValue: { _ in .none })
        let cancelAfterTwo = Box()
        let cancelling = TestSubscriber<Int, Never>(onValue: { value in
            if value == 2 { cancelAfterTwo.subscriber?.cancel() }
            return .none
        })
        cancelAfterTwo.subscriber = cancelling
        (1...10).publisher.subscribe(cancelling)
        #expect(cancelling.values == [1, 2])
        #expect(cancelling.completion == nil)
        (1...3).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
    }
}
