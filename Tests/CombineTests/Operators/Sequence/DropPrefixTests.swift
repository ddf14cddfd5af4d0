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
