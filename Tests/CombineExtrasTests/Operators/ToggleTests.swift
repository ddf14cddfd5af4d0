// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("toggle")
struct ToggleTests {
    @Test func negatesEachValue() {
        let subscriber = TestSubscriber<Bool, Never>()
        [true, false, false].publisher.toggle().subscribe(subscriber)
        #expect(
            subscriber.events == [.subscription, .value(false), .value(true), .value(true), .completion(.finished)])
    }

    @Test func forwardsTheFailure() {
        let subscriber = TestSubscriber<Bool, OperatorFailure>()
        Fail<Bool, OperatorFailure>(error: OperatorFailure(code: 1)).prepend(true).toggle().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(false), .completion(.failure(OperatorFailure(code: 1)))])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<Bool, Never>(initialDemand: .max(2))
        [true, true, true].publisher.toggle().subscribe(subscriber)
        #expect(subscriber.values == [false, false])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: true, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.toggle().eraseToAnyPublisher()
        }
    }
}
