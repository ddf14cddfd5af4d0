// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("mapToResult")
struct MapToResultTests {
    @Test func wrapsValuesAndAFinishAddsNothing() {
        let subscriber = TestSubscriber<Result<Int, OperatorFailure>, Never>()
        [1, 2].publisher.setFailureType(to: OperatorFailure.self).mapToResult().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(.success(1)), .value(.success(2)), .completion(.finished)])
    }

    @Test func aFailureBecomesALastValueThenFinished() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Result<Int, OperatorFailure>, Never>()
        upstream.mapToResult().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 4)))
        #expect(
            subscriber.events == [
                .subscription, .value(.success(1)), .value(.failure(OperatorFailure(code: 4))), .completion(.finished),
            ])
    }

    @Test func theFailureValueWaitsForDemand() {
        let subscriber = TestSubscriber<Result<Int, OperatorFailure>, Never>(initialDemand: .max(1))
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 5))
            .prepend(1)
            .mapToResult()
            .subscribe(subscriber)
        #expect(subscriber.values == [.success(1)])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values == [.success(1), .failure(OperatorFailure(code: 5))])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, token in
            upstream.handleEvents(receiveOutput: { _ in _ = token }).mapToResult()
        }
    }
}
