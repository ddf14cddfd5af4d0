// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("append, prepend, collect(_:)")
struct SequenceOperatorTests {
    @Test func appendAndPrependAllForms() {
        var results: [[Int]] = []
        _ = [3, 4].publisher.prepend(1, 2).collect().sink { results.append($0) }
        _ = [3].publisher.prepend([1, 2]).collect().sink { results.append($0) }
        _ = [3].publisher.prepend(Just(2).append(Empty())).collect().sink { results.append($0) }
        _ = [1, 2].publisher.append(3, 4).collect().sink { results.append($0) }
        _ = [1].publisher.append(2...3).collect().sink { results.append($0) }
        _ = [1].publisher.append([2].publisher).collect().sink { results.append($0) }
        #expect(results == [[1, 2, 3, 4], [1, 2, 3], [2, 3], [1, 2, 3, 4], [1, 2, 3], [1, 2]])
    }

    @Test func suffixIsSubscribedOnlyAfterThePrefixFinishesAndInheritsDemand() {
        let prefix = TestPublisher<Int, Never>()
        let suffix = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        prefix.append(suffix).subscribe(subscriber)
        #expect(suffix.subscriptionCount == 0)
        prefix.send(1)
        prefix.send(completion: .finished)
        #expect(suffix.requests == [.max(2)])
        suffix.send(2)
        suffix.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func prefixFailureEndsTheStream() {
        let suffix = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        Fail<Int, Failure>(error: Failure(code: 1)).append(suffix).subscribe(subscriber)
        #expect(suffix.subscriptionCount == 0)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 1)))])
    }

    @Test func collectByCountAsksForCountPerUnitOfDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(2))
        upstream.collect(3).subscribe(subscriber)
        #expect(upstream.requests == [.max(6)])
        for value in 1...4 { upstream.send(value) }
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .value([4]), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func collectByCountDropsThePartialGroupOnFailure() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<[Int], Failure>()
        upstream.collect(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 5)))
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 5)))])
    }
}
