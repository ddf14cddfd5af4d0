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
