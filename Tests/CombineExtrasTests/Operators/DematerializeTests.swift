// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("dematerialize")
struct DematerializeTests {
    typealias IntEvent = Event<Int, OperatorFailure>

    @Test func publishesTheValuesAndFinishesOnAFinishedEvent() {
        let upstream = TestPublisher<IntEvent, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.dematerialize().subscribe(subscriber)
        upstream.send(.value(1))
        upstream.send(.value(2))
        upstream.send(.finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.cancelCount == 1)
        upstream.send(.value(3))
        #expect(subscriber.values == [1, 2])
    }

    @Test func failsOnAFailureEventAndCancelsTheUpstream() {
        let upstream = TestPublisher<IntEvent, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.dematerialize().subscribe(subscriber)
        upstream.send(.value(1))
        upstream.send(.failure(OperatorFailure(code: 4)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(OperatorFailure(code: 4)))])
        #expect(upstream.cancelCount == 1)
    }

    @Test func anUpstreamThatFinishesFinishesIt() {
        let upstream = TestPublisher<IntEvent, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.dematerialize().subscribe(subscriber)
        upstream.send(.value(1))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.cancelCount == 0)
    }

    @Test func cancelCancelsTheUpstreamOnce() {
        let upstream = TestPublisher<IntEvent, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        upstream.dematerialize().subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func demandPassesStraightUpstream() {
        let upstream = TestPublisher<IntEvent, Never>()
        let subscriber = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(2), onValue: { _ in .max(1) })
        upstream.dematerialize().subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(.value(1)) == .max(1))
        let bounded = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(1))
        [IntEvent.value(1), .value(2), .finished].publisher.dematerialize().subscribe(bounded)
        #expect(bounded.values == [1])
        #expect(bounded.completion == nil)
        bounded.request(.max(1))
        #expect(bounded.values == [1, 2])
        #expect(bounded.completion == nil)  // the `.finished` event waits for demand too
        bounded.request(.max(1))
        #expect(bounded.completion == .finished)
        #expect(bounded.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: IntEvent.value(1), failure: nil) { upstream, _ in
            upstream.dematerialize().eraseToAnyPublisher()
        }
        for terminal in [IntEvent.finished, .failure(OperatorFailure(code: 1))] {
            let upstream = TestPublisher<IntEvent, Never>()
            expectReleased(
                attach: { (token, subscriber: AnySubscriber<Int, OperatorFailure>) in
                    upstream.handleEvents(receiveOutput: { _ in _ = token }).dematerialize().subscribe(subscriber)
                    upstream.send(.value(1))
                },
                end: { _ in upstream.send(terminal) })
        }
    }
}
