// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("flatMap")
struct FlatMapTests {
    @Test func flattensInnerPublishers() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMap { Just($0 * 10) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func maxPublishersOneSubscribesToOneInnerAtATime() {
        let outer = TestPublisher<Int, Never>()
        var inners: [PassthroughSubject<String, Never>] = []
        let subscriber = TestSubscriber<String, Never>()
        outer.flatMap(maxPublishers: .max(1)) { _ -> PassthroughSubject<String, Never> in
            let inner = PassthroughSubject<String, Never>()
            inners.append(inner)
            return inner
        }.subscribe(subscriber)
        #expect(outer.requests == [.max(1)])
        outer.send(1)
        inners[0].send("a")
        inners[0].send(completion: .finished)
        #expect(outer.requests == [.max(1), .max(1)])
        outer.send(2)
        inners[1].send("b")
        #expect(subscriber.values == ["a", "b"])
    }

    @Test func downstreamDemandCoversAllInnerPublishers() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [1, 2].publisher.flatMap { [$0, $0 * 10].publisher }.subscribe(subscriber)
        #expect(subscriber.values == [1, 10, 2])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(5))
        #expect(subscriber.values == [1, 10, 2, 20])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    /// Apple's rule: an inner's failure cancels the other inners and lets the upstream go
    /// without cancelling it; the transform (and what it captured) is let go at the end.
    @Test func innerFailureCancelsTheOtherInnersAndLetsTheUpstreamGo() {
        let outer = TestPublisher<Int, Failure>()
        let other = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        weak var weakToken: LifetimeToken?
        do {
            let token = LifetimeToken()
            weakToken = token
            outer.flatMap { [token] value -> AnyPublisher<Int, Failure> in
                _ = token
                return value == 2
                    ? Fail(error: Failure(code: 2)).eraseToAnyPublisher()
                    : other.eraseToAnyPublisher()
            }.subscribe(subscriber)
        }
        outer.send(1)
        outer.send(2)
        #expect(outer.cancelCount == 0)
        #expect(other.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 2)))])
        #expect(weakToken == nil)
        outer.send(3)  // the upstream, left alone, may go on: nothing reaches the subscriber
        #expect(subscriber.events.count == 2)
    }

    /// Apple's rule: the upstream's failure cancels the inners before it goes out, and the
    /// upstream, which has ended, is not cancelled.
    @Test func upstreamFailureCancelsTheInnersOnly() {
        let outer = TestPublisher<Int, Failure>()
        let inner = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        outer.flatMap { _ in inner }.subscribe(subscriber)
        outer.send(1)
        outer.send(completion: .failure(Failure(code: 1)))
        #expect(inner.cancelCount == 1)
        #expect(outer.cancelCount == 0)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 1)))])
    }

    /// A cancel reaches the inners first, then the upstream, as Apple's.
    @Test func aCancelReachesTheInnersBeforeTheUpstream() {
        let order = LockedValue<[String]>([])
        let outer = TestPublisher<Int, Failure>()
        let inner = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        outer.handleEvents(receiveCancel: { order.append("upstream") })
            .flatMap { _ in inner.handleEvents(receiveCancel: { order.append("inner") }) }
            .subscribe(subscriber)
        outer.send(1)
        subscriber.cancel()
        #expect(order.current == ["inner", "upstream"])
    }

    /// switchToLatest's rule differs: its inner's failure cancels the upstream; and the
    /// subscriber's answer to a value goes back to the inner as the demand it returns.
    @Test func switchToLatestInnerFailureCancelsTheUpstreamAndAnswersGoToTheInner() {
        let outer = TestPublisher<TestPublisher<Int, Failure>, Failure>()
        let inner = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .max(1), onValue: { _ in .max(2) })
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        #expect(inner.requests == [.max(1)])
        #expect(inner.send(1) == .max(2))
        #expect(inner.requests == [.max(1)])
        inner.send(completion: .failure(Failure(code: 3)))
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 0)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Failure(code: 3)))])
    }

    @Test func finishesWhenOuterAndAllInnersFinish() {
        let outer = PassthroughSubject<Int, Never>()
        let inner = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.flatMap { _ in inner }.subscribe(subscriber)
        outer.send(1)
        outer.send(completion: .finished)
        #expect(subscriber.completion == nil)
        inner.send(5)
        inner.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func decodeFailuresReplacedInsideKeepTheOuterStreamAlive() {
        // The team's scenarios document (docs/SCENARIOS.md §2), with a failing parse standing in
        // for the decoder.
        struct ParseError: Error {}
        let notifications = PassthroughSubject<String, Never>()
        var names: [String] = []
        let cancellable =
            notifications
            .flatMap { text in
                Just(text)
                    .tryMap { text -> String in
                        guard text.hasPrefix("{") else { throw ParseError() }
                        return String(text.dropFirst())
                    }
                    .catch { _ in Just("placeholder") }
            }
            .sink { names.append($0) }
        notifications.send("{lumos")
        notifications.send("garbage")
        notifications.send("{nox")
        #expect(names == ["lumos", "placeholder", "nox"])
        cancellable.cancel()
    }

    @Test func failureAdaptingOverloadsCompileAndWork() {
        var results: [Int] = []
        // Never upstream, failing inners.
        let a: Publishers.FlatMap<Fail<Int, Failure>, Publishers.SetFailureType<Just<Int>, Failure>> = Just(1).flatMap {
            _ in Fail<Int, Failure>(error: Failure(code: 1))
        }
        _ = a.sink(receiveCompletion: { _ in results.append(-1) }, receiveValue: { results.append($0) })
        // Failing upstream, never-failing inners.
        let b: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, Failure>, Fail<Int, Failure>> = Fail<
            Int, Failure
        >(
            error: Failure(code: 2)
        ).flatMap { Just($0) }
        _ = b.sink(receiveCompletion: { _ in results.append(-2) }, receiveValue: { results.append($0) })
        // Neither fails.
        let c: Publishers.FlatMap<Just<Int>, Just<Int>> = Just(3).flatMap { Just($0) }
        _ = c.sink { results.append($0) }
        #expect(results == [-1, -2, 3])
    }
}

@Suite("switchToLatest")
struct SwitchToLatestTests {
    @Test func aNewInnerCancelsThePreviousOne() {
        let outer = PassthroughSubject<TestPublisher<String, Never>, Never>()
        let first = TestPublisher<String, Never>()
        let second = TestPublisher<String, Never>()
        let subscriber = TestSubscriber<String, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(first)
        first.send("a1")
        outer.send(second)
        #expect(first.cancelCount == 1)
        first.send("a2")  // late value from the cancelled inner: ignored
        second.send("b1")
        #expect(subscriber.values == ["a1", "b1"])
        outer.send(completion: .finished)
        #expect(subscriber.completion == nil)
        second.send(completion: .finished)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func innerGetsTheOutstandingDemand() {
        let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
        let inner = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        #expect(inner.requests == [.max(2)])
        subscriber.request(.max(3))
        #expect(inner.requests == [.max(2), .max(3)])
    }

    @Test func cancelCancelsOuterAndInner() {
        let outer = TestPublisher<TestPublisher<Int, Never>, Never>()
        let inner = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(subscriber)
        outer.send(inner)
        subscriber.cancel()
        #expect(outer.cancelCount == 1)
        #expect(inner.cancelCount == 1)
    }

    @Test func failureAdaptingOverloads() {
        let neverOuter = PassthroughSubject<Fail<Int, Failure>, Never>()
        let adapted:
            Publishers.SwitchToLatest<
                Fail<Int, Failure>, Publishers.SetFailureType<PassthroughSubject<Fail<Int, Failure>, Never>, Failure>
            > =
                neverOuter.switchToLatest()
        let subscriber = TestSubscriber<Int, Failure>()
        adapted.subscribe(subscriber)
        neverOuter.send(Fail(error: Failure(code: 9)))
        #expect(subscriber.completion == .failure(Failure(code: 9)))

        let failingOuter = PassthroughSubject<Just<Int>, Failure>()
        let second = TestSubscriber<Int, Failure>()
        failingOuter.switchToLatest().subscribe(second)
        failingOuter.send(Just(4))
        #expect(second.values == [4])
    }
}
