// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("materialize")
struct MaterializeTests {
    typealias IntEvent = Event<Int, OperatorFailure>

    @Test func valuesThenAFinishedEvent() {
        let subscriber = TestSubscriber<IntEvent, Never>()
        [1, 2].publisher.setFailureType(to: OperatorFailure.self).materialize().subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(.value(1)), .value(.value(2)), .value(.finished), .completion(.finished),
            ]
        )
    }

    @Test func aFailureBecomesAFailureEventThenFinished() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let subscriber = TestSubscriber<IntEvent, Never>()
        upstream.materialize().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 3)))
        #expect(
            subscriber.events == [
                .subscription, .value(.value(1)), .value(.failure(OperatorFailure(code: 3))), .completion(.finished),
            ])
    }

    @Test func theLastEventWaitsForDemand() {
        let subscriber = TestSubscriber<IntEvent, Never>(initialDemand: .max(2))
        [1, 2].publisher.setFailureType(to: OperatorFailure.self).materialize().subscribe(subscriber)
        #expect(subscriber.values == [.value(1), .value(2)])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [.value(1), .value(2), .finished])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func dematerializeRestoresTheOriginalEvents() {
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 8)).prepend(1, 2).materialize().dematerialize()
            .subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(OperatorFailure(code: 8)))])
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.materialize().eraseToAnyPublisher()
        }
    }
}

@Suite("values() and failures()")
struct MaterializedValuesAndFailuresTests {
    @Test func valuesKeepsOnlyTheValues() {
        let subscriber = TestSubscriber<Int, Never>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 1)).prepend(1, 2).materialize().values()
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func failuresKeepsOnlyTheFailure() {
        let subscriber = TestSubscriber<OperatorFailure, Never>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 1)).prepend(1, 2).materialize().failures()
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(OperatorFailure(code: 1)), .completion(.finished)])
        let none = TestSubscriber<OperatorFailure, Never>()
        [1].publisher.setFailureType(to: OperatorFailure.self).materialize().failures().subscribe(none)
        #expect(none.events == [.subscription, .completion(.finished)])
    }

    @Test func droppedEventsAreMadeUpForWithDemandUpstream() {
        let values = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [Event<Int, OperatorFailure>.finished, .value(5), .value(6)].publisher.values().subscribe(values)
        #expect(values.values == [5])
        #expect(values.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: Event<Int, OperatorFailure>.value(1), failure: nil) { upstream, _ in
            upstream.values()
        }
        expectOperatorContract(sending: Event<Int, OperatorFailure>.value(1), failure: nil) { upstream, _ in
            upstream.failures()
        }
    }
}
