// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

private struct Broken: Error, Equatable {
    let code: Int
}

/// Polls `condition` until it holds, for at most about five seconds.
private func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<5_000 where !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
    try #require(condition())
}

/// A class that is not `Sendable`, to check that iteration compiles on the main actor.
private final class Note {
    let text: String
    init(_ text: String) { self.text = text }
}

/// Lets several tasks await copies of one iterator at once (the copies share one
/// subscription). Unchecked: the test hands each task its own copy, and the iteration behind
/// them is thread-safe.
private final class SharedIterator<Iterator: AsyncIteratorProtocol>: @unchecked Sendable {
    private let iterator: Iterator

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func next() async throws -> Iterator.Element? {
        var copy = iterator
        return try await copy.next()
    }
}

@Suite("Publisher.values")
struct AsyncPublisherTests {
    @Test func deliversInOrderOneValueAtATimeAndEndsOnFinish() async throws {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            var received: [Int] = []
            for await value in upstream.values {
                received.append(value)
            }
            return received
        }
        for value in 1...3 {
            try await waitUntil { upstream.requests.count == value }
            upstream.send(value)
        }
        try await waitUntil { upstream.requests.count == 4 }
        upstream.send(completion: .finished)
        #expect(await task.value == [1, 2, 3])
        #expect(upstream.requests == Array(repeating: .max(1), count: 4))
        #expect(upstream.subscriptionCount == 1)
    }

    @Test func iteratesASynchronousPublisher() async {
        var received: [Int] = []
        for await value in [5, 4, 3, 2, 1, 0].publisher.filter({ $0 % 2 == 0 }).values {
            received.append(value)
        }
        #expect(received == [4, 2, 0])
    }

    @Test func subscribesWhenTheIteratorIsMade() async {
        let upstream = TestPublisher<Int, Never>()
        let sequence = upstream.values
        #expect(upstream.subscriptionCount == 0)
        var iterator = sequence.makeAsyncIterator()
        #expect(upstream.subscriptionCount == 1)
        #expect(upstream.requests == [])
        upstream.send(completion: .finished)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func throwsTheFailureThenReturnsNil() async throws {
        let upstream = TestPublisher<Int, Broken>()
        let task = Task { () -> ([Int], Broken?) in
            var received: [Int] = []
            do {
                for try await value in upstream.values { received.append(value) }
                return (received, nil)
            } catch {
                return (received, error as? Broken)
            }
        }
        try await waitUntil { upstream.requests.count == 1 }
        upstream.send(1)
        try await waitUntil { upstream.requests.count == 2 }
        upstream.send(completion: .failure(Broken(code: 7)))
        let (received, error) = await task.value
        #expect(received == [1])
        #expect(error == Broken(code: 7))

        var iterator = Fail<Int, Broken>(error: Broken(code: 1)).values.makeAsyncIterator()
        await #expect(throws: Broken(code: 1)) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// Copies of one iterator awaited from several tasks at once, as Apple's allows: each call
    /// asks for one value and the calls are answered in the order they asked; a failure goes to
    /// the oldest waiting call and the others get `nil`.
    @Test func severalWaitingCallsAreAnsweredInOrderAndTheOldestGetsTheFailure() async throws {
        let upstream = TestPublisher<Int, Broken>()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        let next = { @Sendable () async -> Result<Int?, Error> in
            do { return .success(try await iterator.next()) } catch { return .failure(error) }
        }
        let first = Task { await next() }
        try await waitUntil { upstream.requests.count == 1 }
        let second = Task { await next() }
        try await waitUntil { upstream.requests.count == 2 }
        let third = Task { await next() }
        try await waitUntil { upstream.requests.count == 3 }
        upstream.send(10)
        #expect(try await first.value.get() == 10)
        upstream.send(completion: .failure(Broken(code: 2)))
        await #expect(throws: Broken(code: 2)) { try await second.value.get() }
        #expect(try await third.value.get() == nil)
        #expect(upstream.requests == [.max(1), .max(1), .max(1)])
    }

    /// Cancelling one waiting task ends every waiting call with `nil` and cancels the
    /// subscription once, as Apple's.
    @Test func cancellingOneWaitingTaskEndsEveryWaitingCall() async throws {
        let upstream = TestPublisher<Int, Never>()
        let iterator = SharedIterator(upstream.values.makeAsyncIterator())
        let next = { @Sendable () async -> Int? in try? await iterator.next() }
        let first = Task { await next() }
        try await waitUntil { upstream.requests.count == 1 }
        let second = Task { await next() }
        try await waitUntil { upstream.requests.count == 2 }
        first.cancel()
        #expect(await first.value == nil)
        #expect(await second.value == nil)
        #expect(upstream.cancelCount == 1)
        #expect(await next() == nil)
        #expect(upstream.requests == [.max(1), .max(1)])
    }

    @Test func throwingSequenceFinishesNormally() async throws {
        var received: [Int] = []
        for try await value in [1, 2].publisher.setFailureType(to: Broken.self).values {
            received.append(value)
        }
        #expect(received == [1, 2])
    }

    @Test func cancellingTheTaskCancelsTheSubscription() async throws {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            var count = 0
            for await _ in upstream.values { count += 1 }
            return count
        }
        try await waitUntil { upstream.requests.count == 1 }
        task.cancel()
        #expect(await task.value == 0)
        #expect(upstream.cancelCount == 1)
        #expect(!upstream.hasSubscriber)
    }

    @Test func cancellingTheThrowingIterationCancelsTheSubscription() async throws {
        let upstream = TestPublisher<Int, Broken>()
        let task = Task {
            var count = 0
            for try await _ in upstream.values { count += 1 }
            return count
        }
        try await waitUntil { upstream.requests.count == 1 }
        task.cancel()
        #expect(try await task.value == 0)
        #expect(upstream.cancelCount == 1)
    }

    @Test func aTaskCancelledBeforeIteratingGetsNothing() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var received: [Int] = []
            for await value in subject.values { received.append(value) }
            return received
        }
        #expect(await task.value == [])
    }

    @Test func leavingTheLoopCancelsTheSubscription() async throws {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            for await value in upstream.values where value == 1 {
                break
            }
        }
        try await waitUntil { upstream.requests.count == 1 }
        upstream.send(1)
        await task.value
        #expect(upstream.cancelCount == 1)
        #expect(upstream.requests == [.max(1)])
    }

    @Test func startsWithTheCurrentValueOfAPublishedProperty() async {
        final class Model {
            @Published var level = 3
        }
        let model = Model()
        var iterator = model.$level.values.makeAsyncIterator()
        #expect(await iterator.next() == 3)
    }

    @Test func bridgesValuesSentFromAnotherTask() async throws {
        let subject = PassthroughSubject<Int, Never>()
        var iterator = subject.values.makeAsyncIterator()
        let sending = Task {
            for value in 1...3 {
                subject.send(value)
                try await Task.sleep(for: .milliseconds(1))
            }
            subject.send(completion: .finished)
        }
        var received: [Int] = []
        while let value = await iterator.next() { received.append(value) }
        try await sending.value
        // A subject drops what is sent while no next() waits: whatever arrives is in order.
        #expect(received == received.sorted())
        #expect(received.allSatisfy { (1...3).contains($0) })
    }

    @MainActor
    @Test func iteratesNonSendableElementsOnTheMainActor() async {
        var texts: [String] = []
        for await note in [Note("a"), Note("b")].publisher.values {
            texts.append(note.text)
        }
        #expect(texts == ["a", "b"])
    }
}

@Suite("Future.value")
struct FutureValueTests {
    @Test func deliversTheValue() async {
        let future = Future<Int, Never> { promise in promise(.success(42)) }
        #expect(await future.value == 42)
        #expect(await future.value == 42)
    }

    @Test func throwingValueDeliversTheValue() async throws {
        let future = Future<String, Broken> { promise in promise(.success("ok")) }
        #expect(try await future.value == "ok")
    }

    @Test func throwsTheFailure() async {
        let future = Future<Int, Broken> { promise in promise(.failure(Broken(code: 3))) }
        await #expect(throws: Broken(code: 3)) { try await future.value }
    }

    @Test func waitsForAPromiseFulfilledLaterOnAnotherThread() async throws {
        let future = Future<Int, Broken> { promise in
            nonisolated(unsafe) let promise = promise  // not Sendable, as Apple's
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: 0.02)
                promise(.success(7))
            }
        }
        #expect(try await future.value == 7)
    }
}
