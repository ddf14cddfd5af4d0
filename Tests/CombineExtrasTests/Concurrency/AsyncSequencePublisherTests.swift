// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Synchronization
import Testing

/// Counts the iterators alive and the elements pulled from an endless sequence of 1, 2, 3, ...
private final class PullLog: Sendable {
    let pulls = Atomic<Int>(0)
    let liveIterators = Atomic<Int>(0)
}

/// An endless sequence that records every pull, and whose iterator reports its end.
private struct Counting: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let log: PullLog

    final class Alive: Sendable {
        let log: PullLog
        init(_ log: PullLog) {
            self.log = log
            log.liveIterators.add(1, ordering: .relaxed)
        }
        deinit { log.liveIterators.subtract(1, ordering: .relaxed) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let alive: Alive
        mutating func next() async -> Int? {
            alive.log.pulls.add(1, ordering: .relaxed).newValue
        }
        mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(alive: Alive(log)) }
}

/// A sequence that throws its own error type after its elements.
private struct FailingAfter: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = ProbeError
    let elements: [Int]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: [Int]
        mutating func next() async throws(ProbeError) -> Int? {
            if remaining.isEmpty { throw ProbeError(code: 7) }
            return remaining.removeFirst()
        }
        mutating func next(isolation actor: isolated (any Actor)?) async throws(ProbeError) -> Int? {
            try await next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: elements) }
}

@Suite("AsyncSequence.publisher")
struct AsyncSequencePublisherTests {
    @Test func publishesTheElementsThenFinishes() async {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        stream.publisher.subscribe(subscriber)
        #expect(await eventually { subscriber.completion != nil })
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failsWithTheSequencesTypedError() async {
        let publisher = FailingAfter(elements: [1, 2]).publisher
        // The failure type is the sequence's own, not `any Error`.
        let typed: AnyPublisher<Int, ProbeError> = publisher.eraseToAnyPublisher()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .unlimited)
        typed.subscribe(subscriber)
        #expect(await eventually { subscriber.completion != nil })
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .failure(ProbeError(code: 7)))
    }

    @Test func aSequenceThatCannotThrowNeverFails() {
        let stream = AsyncStream<Int> { $0.finish() }
        let _: AnyPublisher<Int, Never> = stream.publisher.eraseToAnyPublisher()
        #expect(String(describing: Publishers.AsyncSequence<AsyncStream<Int>>.Failure.self) == "Never")
    }

    /// The iterator is asked for an element only against demand: with `.max(3)` and then
    /// `.max(2)`, exactly five pulls happen, none ahead of the subscriber. (A publisher that
    /// prefetched would have pulled a sixth element by the time its task ended.)
    @Test func pullsOnlyWhatTheSubscriberAskedFor() async {
        let log = PullLog()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Counting(log: log).publisher.subscribe(subscriber)
        #expect(log.pulls.load(ordering: .relaxed) == 0)  // nothing before the first request
        subscriber.request(.max(3))
        #expect(await eventually { subscriber.values.count == 3 })
        subscriber.request(.max(2))
        #expect(await eventually { subscriber.values.count == 5 })
        subscriber.cancel()
        #expect(await eventually { log.liveIterators.load(ordering: .relaxed) == 0 })
        #expect(log.pulls.load(ordering: .relaxed) == 5)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completion == nil)
    }

    /// Demand the subscriber returns from `receive(_:)` counts too.
    @Test func demandReturnedFromReceiveIsHonoured() async {
        let log = PullLog()
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(1), onValue: { $0 < 4 ? .max(1) : .none })
        Counting(log: log).publisher.subscribe(subscriber)
        #expect(await eventually { subscriber.values.count == 4 })
        subscriber.cancel()
        #expect(await eventually { log.liveIterators.load(ordering: .relaxed) == 0 })
        #expect(log.pulls.load(ordering: .relaxed) == 4)
    }

    /// Cancelling while the iterator waits inside `next()` cancels the iterating task: the
    /// stream sees its consumer cancelled, and nothing reaches the subscriber afterwards.
    @Test func cancelCancelsTheIteratingTask() async {
        let terminated = LockedValue<AsyncStream<Int>.Continuation.Termination?>(nil)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { terminated.set($0) }
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        stream.publisher.subscribe(subscriber)
        continuation.yield(1)
        #expect(await eventually { subscriber.values == [1] })
        subscriber.cancel()  // the task is now waiting in the stream's `next()`
        #expect(await eventually { terminated.current != nil })
        if case .cancelled? = terminated.current {
        } else {
            Issue.record("the stream's consumer was not cancelled: \(String(describing: terminated.current))")
        }
        continuation.yield(2)
        continuation.finish()
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }

    /// Cancelling while the task waits for demand ends the task too.
    @Test func cancelWhileWaitingForDemandEndsTheTask() async {
        let log = PullLog()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Counting(log: log).publisher.subscribe(subscriber)
        #expect(await eventually { subscriber.values == [1] })
        subscriber.cancel()
        #expect(await eventually { log.liveIterators.load(ordering: .relaxed) == 0 })
        #expect(log.pulls.load(ordering: .relaxed) == 1)
    }

    /// When the sequence ends, the subscription lets go of its subscriber (and what its
    /// closures capture) and its task ends.
    @Test func releasesTheSubscriberAtTheEnd() async {
        let stream = AsyncStream<Int> { continuation in
            continuation.yield(1)
            continuation.finish()
        }
        await expectSubscriberReleasedAtTheEnd(stream.publisher)
    }

    @Test func describesItself() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        AsyncStream<Int> { $0.finish() }.publisher.subscribe(subscriber)
        #expect(subscriber.subscription.map { String(describing: $0) } == "AsyncSequence")
        subscriber.cancel()
    }
}
