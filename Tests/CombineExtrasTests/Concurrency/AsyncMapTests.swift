// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Testing

@Suite("asyncMap, tryAsyncMap, asyncMapLatest")
struct AsyncMapTests {
    @Test func transformsEachValueInOrderThenFinishes() async {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        [1, 2, 3].publisher.asyncMap { value -> Int in
            await Task.yield()
            return value * 10
        }.subscribe(subscriber)
        #expect(await eventually { subscriber.completion != nil })
        #expect(subscriber.values == [10, 20, 30])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    /// One value at a time, and only against the subscriber's demand.
    @Test func asksUpstreamForOneValueAtATimeWithinDemand() async {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.asyncMap { $0 * 10 }.subscribe(subscriber)
        #expect(upstream.requests == [.max(1)])
        _ = upstream.send(1)
        #expect(await eventually { subscriber.values == [10] })
        #expect(upstream.requests == [.max(1)])  // no demand left: nothing more asked
        subscriber.request(.max(2))
        #expect(upstream.requests == [.max(1), .max(1)])  // one at a time, though two are wanted
        _ = upstream.send(2)
        #expect(await eventually { subscriber.values == [10, 20] })
        #expect(await eventually { upstream.requests == [.max(1), .max(1), .max(1)] })
        upstream.send(completion: .finished)
        #expect(await eventually { subscriber.completion == .finished })
    }

    /// With `.inputOrder`, a result that finishes early waits for the earlier values' results.
    @Test func concurrentInInputOrder() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMap(maxConcurrent: 3, ordering: .inputOrder) { value -> Int in
            await gates.wait(value)
            return value * 10
        }.subscribe(subscriber)
        #expect(upstream.requests == [.max(3)])
        for value in 1...3 { _ = upstream.send(value) }
        #expect(await eventually { Set(gates.started) == [1, 2, 3] })  // all three run at once
        gates.open(3)
        gates.open(2)
        #expect(await eventually { gates.finished.count == 2 })
        #expect(subscriber.values.isEmpty)  // 2 and 3 wait for 1
        gates.open(1)
        #expect(await eventually { subscriber.values == [10, 20, 30] })
        #expect(await eventually { upstream.requests == [.max(3), .max(1), .max(1), .max(1)] })
    }

    @Test func concurrentInCompletionOrder() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMap(maxConcurrent: 3, ordering: .completionOrder) { value -> Int in
            await gates.wait(value)
            return value * 10
        }.subscribe(subscriber)
        for value in 1...3 { _ = upstream.send(value) }
        #expect(await eventually { gates.started.count == 3 })
        gates.open(3)
        #expect(await eventually { subscriber.values == [30] })
        gates.open(1)
        #expect(await eventually { subscriber.values == [30, 10] })
        gates.open(2)
        #expect(await eventually { subscriber.values == [30, 10, 20] })
    }

    /// No more values in the operator than `maxConcurrent`, and no more than the demand.
    @Test func boundedByMaxConcurrentAndDemand() async {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.asyncMap(maxConcurrent: 4) { $0 }.subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])  // the demand is smaller than the limit
        subscriber.request(.unlimited)
        #expect(upstream.requests == [.max(2), .max(2)])  // now up to the limit of 4
    }

    /// Cancelling the subscription cancels the running transform's task.
    @Test func cancelCancelsTheRunningTransform() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMap { value -> Int in
            await gates.wait(value)
            return value
        }.subscribe(subscriber)
        _ = upstream.send(1)
        #expect(await eventually { gates.started == [1] })
        subscriber.cancel()
        #expect(await eventually { gates.cancelled == [1] })
        #expect(upstream.cancelCount == 1)
        #expect(await eventually { gates.finished == [1] })
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    /// A transform that ignores cancellation and returns afterwards publishes nothing.
    @Test func noValueAfterCancel() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMap { value -> Int in
            await gates.wait(value, cancellable: false)
            return value
        }.subscribe(subscriber)
        _ = upstream.send(1)
        #expect(await eventually { gates.started == [1] })
        subscriber.cancel()
        gates.open(1)
        #expect(await eventually { gates.finished == [1] })
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
    }

    @Test func tryAsyncMapFailsWithTheThrownErrorAndCancelsUpstream() async {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited)
        upstream.tryAsyncMap { value -> Int in
            if value == 2 { throw ProbeError(code: 2) }
            return value * 10
        }.subscribe(subscriber)
        _ = upstream.send(1)
        #expect(await eventually { subscriber.values == [10] })
        _ = upstream.send(2)
        #expect(await eventually { subscriber.completion != nil })
        if case .failure(let error as ProbeError)? = subscriber.completion {
            #expect(error == ProbeError(code: 2))
        } else {
            Issue.record("expected the thrown error, got \(String(describing: subscriber.completion))")
        }
        #expect(upstream.cancelCount == 1)
        _ = upstream.send(3)
        #expect(subscriber.values == [10])
    }

    /// In input order, the results of earlier values are published before a later value's
    /// error; the other running transforms are cancelled.
    @Test func tryAsyncMapInInputOrderPublishesEarlierResultsFirst() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited)
        upstream.tryAsyncMap(maxConcurrent: 3) { value -> Int in
            if value == 2 { throw ProbeError(code: 2) }
            await gates.wait(value)
            return value * 10
        }.subscribe(subscriber)
        for value in 1...3 { _ = upstream.send(value) }
        #expect(await eventually { Set(gates.started) == [1, 3] })
        gates.open(1)
        #expect(await eventually { subscriber.completion != nil })
        #expect(subscriber.values == [10])
        #expect(await eventually { gates.cancelled == [3] })
    }

    @Test func upstreamFailureCancelsTheTransformsAndFails() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, ProbeError>()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .unlimited)
        upstream.asyncMap { value -> Int in
            await gates.wait(value)
            return value
        }.subscribe(subscriber)
        _ = upstream.send(1)
        #expect(await eventually { gates.started == [1] })
        upstream.send(completion: .failure(ProbeError(code: 9)))
        #expect(subscriber.completion == .failure(ProbeError(code: 9)))
        #expect(await eventually { gates.cancelled == [1] })
        #expect(subscriber.values.isEmpty)
    }

    /// A new value cancels the running transform; only the latest result is published.
    @Test func asyncMapLatestCancelsTheSupersededTransform() async {
        let gates = Gates()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        upstream.asyncMapLatest { value -> Int in
            await gates.wait(value)
            return value * 10
        }.subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        _ = upstream.send(1)
        #expect(await eventually { gates.started == [1] })
        _ = upstream.send(2)
        #expect(await eventually { gates.cancelled == [1] })
        gates.open(2)
        #expect(await eventually { subscriber.values == [20] })
        upstream.send(completion: .finished)
        #expect(await eventually { subscriber.completion == .finished })
        #expect(subscriber.values == [20])
    }

    /// The subscriber is released when the publisher finishes.
    @Test func releasesTheSubscriberAtTheEnd() async {
        await expectSubscriberReleasedAtTheEnd([1, 2].publisher.asyncMap { $0 })
    }
}

@Suite("Future from an async closure")
struct FutureAsyncTests {
    @Test func publishesTheClosuresResult() async {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        Future { () async -> Int in
            await Task.yield()
            return 42
        }.subscribe(subscriber)
        #expect(await eventually { subscriber.completion != nil })
        #expect(subscriber.values == [42])
        #expect(subscriber.completion == .finished)
    }

    @Test func failsWithTheThrownError() async {
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .unlimited)
        Future { () async throws -> Int in throw ProbeError(code: 5) }.subscribe(subscriber)
        #expect(await eventually { subscriber.completion != nil })
        if case .failure(let error as ProbeError)? = subscriber.completion {
            #expect(error == ProbeError(code: 5))
        } else {
            Issue.record("expected the thrown error, got \(String(describing: subscriber.completion))")
        }
    }

    /// A cancelled subscriber receives nothing; the shared work goes on for the others.
    @Test func aCancelledSubscriberReceivesNothing() async {
        let gates = Gates()
        let future = Future { () async -> Int in
            await gates.wait(1, cancellable: false)
            return 1
        }
        let cancelled = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        let staying = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        future.subscribe(cancelled)
        future.subscribe(staying)
        cancelled.cancel()
        gates.open(1)
        #expect(await eventually { staying.completion == .finished })
        #expect(staying.values == [1])
        #expect(cancelled.values.isEmpty)
        #expect(cancelled.completion == nil)
    }

    @Test func thePromiseFormStillResolves() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .unlimited)
        Future<Int, Never> { promise in promise(.success(7)) }.subscribe(subscriber)
        #expect(subscriber.values == [7])
    }
}

/// Subscribes a subscriber that holds a token to `publisher`, waits for the completion, and
/// checks that the token — so the subscriber — has been let go: the task-driven bridges
/// release their subscriber when they end.
func expectSubscriberReleasedAtTheEnd<P: Publisher>(
    _ publisher: P, sourceLocation: SourceLocation = #_sourceLocation
) async where P.Failure == Never {
    weak var weakToken: LifetimeToken?
    let finished = LockedValue(false)
    do {
        let token = LifetimeToken()
        weakToken = token
        publisher.subscribe(
            AnySubscriber(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: { _ in token.pass(.none) },
                receiveCompletion: { _ in finished.set(true) }))
    }
    #expect(await eventually { finished.current }, sourceLocation: sourceLocation)
    #expect(await eventually { weakToken == nil }, sourceLocation: sourceLocation)
}
