// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

private func failure<Output>(of subscriber: TestSubscriber<Output, any Error>) -> Failure? {
    guard case .failure(let error) = subscriber.completion else { return nil }
    return error as? Failure
}

@Suite("count, ignoreOutput, min, max, contains, allSatisfy, first, last")
struct ReducingFamilyTests {
    @Test func countPublishesTheNumberAtTheEnd() {
        let subscriber = TestSubscriber<Int, Never>()
        ["a", "b", "c"].publisher.count().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
    }

    @Test func ignoreOutputPassesOnlyTheCompletion() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Never, Failure>()
        upstream.ignoreOutput().subscribe(subscriber)
        // As Apple's: the subscriber gets the upstream subscription itself (its own request
        // goes straight upstream), then the operator asks upstream for everything.
        #expect(upstream.requests == [.unlimited, .unlimited])
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 1)))
        #expect(subscriber.completion == .failure(Failure(code: 1)))
        #expect(subscriber.subscriptionCount == 1)
    }

    @Test func minAndMaxKeepTheFirstOfEquals() {
        struct Item {
            let rank: Int
            let name: String
        }
        let items = [
            Item(rank: 2, name: "a"), Item(rank: 5, name: "b"), Item(rank: 5, name: "c"), Item(rank: 2, name: "d"),
        ]
        var maximum: [String] = []
        _ = items.publisher.max(by: { $0.rank < $1.rank }).sink { maximum.append($0.name) }
        var minimum: [String] = []
        _ = items.publisher.min(by: { $0.rank < $1.rank }).sink { minimum.append($0.name) }
        #expect(maximum == ["b"])
        #expect(minimum == ["a"])
        var plain: [Int] = []
        _ = [3, 9, 1].publisher.max().sink { plain.append($0) }
        _ = [3, 9, 1].publisher.min().sink { plain.append($0) }
        #expect(plain == [9, 1])
    }

    @Test func maxOfNothingPublishesNothing() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().max().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func tryMaxFailsWithTheThrownError() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 2].publisher.tryMax { _, _ in throw Failure(code: 8) }.subscribe(subscriber)
        #expect(failure(of: subscriber) == Failure(code: 8))
    }

    @Test func containsStopsAtTheMatch() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Bool, Never>()
        upstream.contains(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .value(true), .completion(.finished)])
    }

    @Test func containsWithoutMatchPublishesFalse() {
        let subscriber = TestSubscriber<Bool, Never>()
        [1, 3].publisher.contains(where: { $0.isMultiple(of: 2) }).subscribe(subscriber)
        #expect(subscriber.values == [false])
    }

    @Test func allSatisfyIsFalseAtTheFirstFailureAndTrueOtherwise() {
        var results: [Bool] = []
        _ = [2, 4, 5, 6].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { results.append($0) }
        _ = [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { results.append($0) }
        _ = Empty<Int, Never>().allSatisfy { _ in false }.sink { results.append($0) }
        #expect(results == [false, true, true])
    }

    @Test func tryContainsAndTryAllSatisfyFail() {
        let contains = TestSubscriber<Bool, any Error>()
        [1].publisher.tryContains(where: { _ in throw Failure(code: 1) }).subscribe(contains)
        #expect(failure(of: contains) == Failure(code: 1))
        let all = TestSubscriber<Bool, any Error>()
        [1].publisher.tryAllSatisfy({ _ in throw Failure(code: 2) }).subscribe(all)
        #expect(failure(of: all) == Failure(code: 2))
    }

    @Test func firstAndLast() {
        var results: [Int] = []
        _ = [1, 2, 3, 4].publisher.first().sink { results.append($0) }
        _ = [1, 2, 3, 4].publisher.first(where: { $0 > 1 }).sink { results.append($0) }
        _ = [1, 2, 3, 4].publisher.last().sink { results.append($0) }
        _ = [1, 2, 3, 4].publisher.last(where: { $0 < 3 }).sink { results.append($0) }
        #expect(results == [1, 2, 4, 2])
    }

    @Test func firstCancelsUpstreamAndWaitsForDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.first().subscribe(subscriber)
        upstream.send(7)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func tryFirstAndTryLastFail() {
        let first = TestSubscriber<Int, any Error>()
        [1, 2].publisher.tryFirst(where: { _ in throw Failure(code: 4) }).subscribe(first)
        #expect(failure(of: first) == Failure(code: 4))
        let last = TestSubscriber<Int, any Error>()
        [1, 2].publisher.tryLast(where: { value in
            if value == 2 { throw Failure(code: 6) }
            return true
        }).subscribe(last)
        #expect(last.values.isEmpty)
        #expect(failure(of: last) == Failure(code: 6))
    }

    @Test func lastOfAnEmptyUpstreamOnlyFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        Empty<Int, Never>().last().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    /// Apple's reducing operators hold even a bare `.finished` (nothing matched) until the
    /// subscriber asks for something, as they hold a result.
    @Test func aFinishWithoutResultWaitsForDemandLikeAResult() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        upstream.first { $0 > 10 }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        subscriber.request(.max(1))  // nothing more
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    /// A failure does not wait for demand.
    @Test func aFailurePassesWithoutDemand() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        upstream.last().subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 2)))
        #expect(subscriber.completion == .failure(Failure(code: 2)))
    }

    /// Descriptions and mirrors as Apple's: `first(where:)`'s subscription calls itself
    /// "TryFirst"; a reducing subscription mirrors downstream, result, initial and status;
    /// `collect()`'s only its count; `ignoreOutput()` hands over the upstream subscription.
    @Test func descriptionsAndMirrorsAreApples() {
        let upstream = TestPublisher<Int, Failure>()
        let firstWhere = TestSubscriber<Int, Failure>(initialDemand: .none)
        upstream.first { $0 > 0 }.subscribe(firstWhere)
        let reduce = TestSubscriber<Int, Failure>(initialDemand: .none)
        upstream.reduce(0, +).subscribe(reduce)
        let collect = TestSubscriber<[Int], Failure>(initialDemand: .none)
        upstream.collect().subscribe(collect)
        let ignore = TestSubscriber<Never, Failure>(initialDemand: .none)
        upstream.ignoreOutput().subscribe(ignore)
        #expect(String(describing: firstWhere.subscription as Any).contains("TryFirst"))
        #expect(
            reduce.subscription.map { Mirror(reflecting: $0).children.map(\.label) }
                == ["downstream", "result", "initial", "status"])
        #expect(collect.subscription.map { Mirror(reflecting: $0).children.map(\.label) } == ["count"])
        // The subscriber of ignoreOutput() holds the upstream's own subscription.
        #expect(ignore.subscription != nil)
        #expect(ignore.subscription.map { String(describing: $0) } != "IgnoreOutput")
    }

}
