// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("setOutputType")
struct SetOutputTypeTests {
    @Test func presentsTheNewOutputTypeAndForwardsTheFinish() {
        let subscriber = TestSubscriber<String, Never>()
        let typed: Publishers.Map<Publishers.IgnoreOutput<Just<Int>>, String> =
            Just(1).ignoreOutput().setOutputType(to: String.self)
        typed.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func letsANeverPublishingPublisherJoinAChain() {
        let subscriber = TestSubscriber<String, Never>()
        Empty<Never, Never>().setOutputType(to: String.self).merge(with: Just("message")).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("message"), .completion(.finished)])
    }

    @Test func forwardsTheFailure() {
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        Fail<Never, OperatorFailure>(error: OperatorFailure(code: 2)).setOutputType(to: Int.self).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(OperatorFailure(code: 2)))])
    }

    @Test func contract() {
        // A `Never` upstream sends no values: the release checks run with the finish and failure
        // of an upstream that was only subscribed. The sample is never sent: `Never` has none.
        let upstream = TestPublisher<Never, OperatorFailure>()
        let subscriber = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(2))
        upstream.setOutputType(to: Int.self).subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        for ending: Subscribers.Completion<OperatorFailure>? in [nil, .finished, .failure(OperatorFailure(code: 1))] {
            let upstream = TestPublisher<Never, OperatorFailure>()
            expectReleased(
                attach: { (token, subscriber: AnySubscriber<Int, OperatorFailure>) in
                    upstream.handleEvents(receiveSubscription: { _ in _ = token }).setOutputType(to: Int.self)
                        .subscribe(subscriber)
                },
                end: { subscriber in
                    if let ending { upstream.send(completion: ending) } else { subscriber.cancel() }
                })
        }
    }
}
