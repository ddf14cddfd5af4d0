// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct TestError: Error, Equatable {
    let code: Int
}

@Suite("collect, reduce, tryReduce")
struct ReducingOperatorTests {
    @Test func collectPublishesOneArrayWhenUpstreamFinishes() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect().subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        #expect(subscriber.values.isEmpty)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2]), .completion(.finished)])
    }

    @Test func reducedValueWaitsForDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (1...4).publisher.reduce(0, +).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(10), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func reduceFailurePassesOnWithoutAValue() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.reduce(0, +).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(code: 7)))
        #expect(subscriber.events == [.subscription, .completion(.failure(TestError(code: 7)))])
    }

    @Test func tryReduceThrowCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryReduce(0) { total, value in
            if value < 0 { throw TestError(code: value) }
            return total + value
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(-1)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.values.isEmpty)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? TestError == TestError(code: -1))
    }

    @Test func cancellingAReducerCancelsUpstreamOnce() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        upstream.collect().subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
    }
}
