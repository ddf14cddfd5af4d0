// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct TestError: Error, Equatable {
    let code: Int
}

@Suite("map, filter, compactMap, tryMap")
struct OneToOneOperatorTests {
    @Test func mapTransformsEveryValueAndPassesCompletion() {
        let subscriber = TestSubscriber<String, Never>()
        [1, 2, 3].publisher.map { "\($0 * 10)" }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("10"), .value("20"), .value("30"), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func mapPassesTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2), onValue: { _ in .max(1) })
        upstream.map { $0 + 1 }.subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .max(1))  // the downstream's answer goes straight back up
        #expect(subscriber.subscription.map { String(describing: $0) } == "TestPublisher")
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        upstream.send(completion: .failure(TestError(code: 1)))
        #expect(subscriber.values == [2])
    }

    @Test func mapOfMapFusesIntoOneMap() {
        let fused: Publishers.Map<Publishers.Sequence<[Int], Never>, String> = [1, 2].publisher.map { $0 + 1 }.map {
            "\($0)"
        }
        let subscriber = TestSubscriber<String, Never>()
        fused.subscribe(subscriber)
        #expect(subscriber.values == ["2", "3"])
    }

    @Test func filterAsksUpstreamForAReplacementOfEveryRejectedValue() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func filterRespectsDownstreamDemandOverASequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...10).publisher.filter { $0.isMultiple(of: 3) }.subscribe(subscriber)
        #expect(subscriber.values == [3, 6])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(5))
        #expect(subscriber.values == [3, 6, 9])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func compactMapDropsNilsAndAsksForReplacements() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        ["1", "x", "2", "y", "3"].publisher.compactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }

    @Test func tryMapFailsWithTheThrownErrorAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError(code: value) }
            return value * 2
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)  // after the failure: ignored
        #expect(subscriber.values == [2])
        #expect(upstream.cancelCount == 1)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error as? TestError == TestError(code: 2))
        #expect(subscriber.violations.isEmpty)
    }

    @Test func tryMapIsTheSubscriptionDownstreamSees() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(3))
        upstream.tryMap { $0 }.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "TryMap")
        #expect(upstream.requests == [.max(3)])
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
    }
}
