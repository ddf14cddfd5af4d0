// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("ignoreFailure")
struct IgnoreFailureTests {
    @Test func aFailureFinishesByDefault() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.ignoreFailure().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 1)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func withoutCompletingImmediatelyAFailureLeavesItOpenAndSilent() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.ignoreFailure(completeImmediately: false).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(OperatorFailure(code: 1)))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func aFinishIsForwarded() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: OperatorFailure.self).ignoreFailure(completeImmediately: false)
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func theSetFailureTypeOverloadPresentsTheNewType() {
        struct Other: Error, Equatable {}
        let subscriber = TestSubscriber<Int, Other>()
        let erased: AnyPublisher<Int, Other> = Fail<Int, OperatorFailure>(error: OperatorFailure(code: 1))
            .prepend(7)
            .ignoreFailure(setFailureType: Other.self)
        erased.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        let silent = TestSubscriber<Int, Other>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 1))
            .ignoreFailure(setFailureType: Other.self, completeImmediately: false)
            .subscribe(silent)
        #expect(silent.events == [.subscription])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.setFailureType(to: OperatorFailure.self).ignoreFailure().subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelWhileSilentReleasesEverything() {
        let upstream = PassthroughSubject<Int, OperatorFailure>()
        expectReleased(
            attach: { (token, subscriber: AnySubscriber<Int, Never>) in
                upstream.handleEvents(receiveOutput: { _ in _ = token })
                    .ignoreFailure(completeImmediately: false)
                    .subscribe(subscriber)
                upstream.send(1)
            },
            end: { subscriber in
                upstream.send(completion: .failure(OperatorFailure(code: 1)))  // leaves it open
                subscriber.cancel()
            })
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.ignoreFailure()
        }
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.ignoreFailure(setFailureType: OperatorFailure.self)
        }
    }
}
