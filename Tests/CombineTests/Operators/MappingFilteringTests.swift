import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

private struct Wrapped: Error, Equatable {
    let inner: Failure
}

private struct Point {
    let x: Int
    let y: Int
    let label: String
}

private func failure<Output>(of subscriber: TestSubscriber<Output, any Error>) -> Failure? {
    guard case .failure(let error) = subscriber.completion else { return nil }
    return error as? Failure
}

@Suite("mapError, setFailureType, replaceNil, map(keyPath)")
struct MappingOperatorTests {
    @Test func mapErrorConvertsTheFailureOnly() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Wrapped>()
        upstream.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 3)))
        #expect(
            subscriber.events == [.subscription, .value(1), .completion(.failure(Wrapped(inner: Failure(code: 3))))])
    }

    @Test func setFailureTypeChangesOnlyTheType() {
        let publisher: Publishers.SetFailureType<Just<Int>, Failure> = Just(5).setFailureType(to: Failure.self)
        let subscriber = TestSubscriber<Int, Failure>()
        publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(publisher == Just(5).setFailureType(to: Failure.self))
    }

    @Test func replaceNilSubstitutesTheDefault() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, nil, 3].publisher.replaceNil(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1, 0, 3])
    }

    @Test func keyPathMapsOneTwoAndThreeProperties() {
        let points = [Point(x: 1, y: 2, label: "a"), Point(x: 3, y: 4, label: "b")]
        let one = TestSubscriber<String, Never>()
        points.publisher.map(\.label).subscribe(one)
        #expect(one.values == ["a", "b"])

        var pairs: [String] = []
        _ = points.publisher.map(\.x, \.y).sink { pairs.append("\($0),\($1)") }
        #expect(pairs == ["1,2", "3,4"])

        var triples: [String] = []
        _ = points.publisher.map(\.x, \.y, \.label).sink { triples.append("\($0)\($1)\($2)") }
        #expect(triples == ["12a", "34b"])
    }
}

@Suite("scan, tryScan")
struct ScanTests {
    @Test func scanPublishesEveryPartialResult() {
        let subscriber = TestSubscriber<Int, Never>()
        (1...4).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1, 3, 6, 10])
        #expect(subscriber.completion == .finished)
    }

    @Test func tryScanFailsAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0) { total, value in
            guard value > 0 else { throw Failure(code: value) }
            return total + value
        }.subscribe(subscriber)
        upstream.send(2)
        upstream.send(-1)
        upstream.send(5)
        #expect(subscriber.values == [2])
        #expect(failure(of: subscriber) == Failure(code: -1))
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func scanHonoursDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...4).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 3, 6, 10])
    }
}

@Suite("tryFilter, tryCompactMap, removeDuplicates")
struct FilteringOperatorTests {
    @Test func tryFilterSkipsAndFails() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(5))
        upstream.tryFilter { value in
            if value == 99 { throw Failure(code: 99) }
            return value.isMultiple(of: 2)
        }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        upstream.send(2)
        upstream.send(99)
        #expect(subscriber.values == [2])
        #expect(failure(of: subscriber) == Failure(code: 99))
        #expect(upstream.cancelCount == 1)
    }

    @Test func tryCompactMapPublishesNonNilResults() {
        let subscriber = TestSubscriber<Int, any Error>()
        ["1", "x", "3"].publisher.tryCompactMap { Int($0) }.subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        guard case .finished = subscriber.completion else {
            Issue.record("expected finished")
            return
        }
    }

    @Test func removeDuplicatesComparesWithTheLastPublished() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 1, 2, 2, 2, 1, 3, 3].publisher.removeDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 1, 3])
    }

    @Test func removeDuplicatesByPredicateAsksForReplacements() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(1))
        upstream.removeDuplicates { $0.lowercased() == $1.lowercased() }.subscribe(subscriber)
        #expect(upstream.send("a") == .none)
        #expect(upstream.send("A") == .max(1))
        #expect(subscriber.values == ["a"])
    }

    @Test func tryRemoveDuplicatesFailsWithTheThrownError() {
        let subscriber = TestSubscriber<Int, any Error>()
        [1, 1, 5, 6].publisher.tryRemoveDuplicates { previous, next in
            if next == 5 { throw Failure(code: 5) }
            return previous == next
        }.subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(failure(of: subscriber) == Failure(code: 5))
    }
}

@Suite("dropFirst, drop(while:), prefix(while:)")
struct DropPrefixTests {
    @Test func dropFirstAddsTheCountToTheFirstRequestOnly() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.dropFirst(3).subscribe(subscriber)
        #expect(upstream.requests == [.max(5)])
        for value in 1...5 { upstream.send(value) }
        #expect(subscriber.values == [4, 5])
        subscriber.request(.max(1))
        #expect(upstream.requests == [.max(5), .max(1)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func dropFirstDefaultsToOne() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.dropFirst().subscribe(subscriber)
        #expect(subscriber.values == [2, 3])
        #expect(Publishers.Drop(upstream: Just(1), count: 1) == Just(1).dropFirst())
    }

    @Test func dropWhileThenPassesEverything() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 5, 1, 7].publisher.drop(while: { $0 < 3 }).subscribe(subscriber)
        #expect(subscriber.values == [5, 1, 7])
    }

    @Test func prefixWhileFinishesAndCancelsAtTheFirstFailure() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(while: { $0 < 3 }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func tryDropWhileAndTryPrefixWhileFail() {
        let dropping = TestSubscriber<Int, any Error>()
        [1, 2, 3].publisher.tryDrop(while: { value in
            if value == 2 { throw Failure(code: 2) }
            return true
        }).subscribe(dropping)
        #expect(dropping.values.isEmpty)
        #expect(failure(of: dropping) == Failure(code: 2))

        let prefixing = TestSubscriber<Int, any Error>()
        [1, 2, 3].publisher.tryPrefix(while: { value in
            if value == 3 { throw Failure(code: 3) }
            return true
        }).subscribe(prefixing)
        #expect(prefixing.values == [1, 2])
        #expect(failure(of: prefixing) == Failure(code: 3))
    }
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
