// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Future where Failure == Never {
    /// The value the future resolves to, awaited.
    ///
    /// Subscribes to the future and suspends until it publishes its value (at once if it
    /// already has). The wait does not end early when the task is cancelled: a future that
    /// cannot fail always has a value to give.
    ///
    /// ```swift
    /// let answer = Future<Int, Never> { promise in promise(.success(42)) }
    /// print(await answer.value)   // 42
    /// ```
    public final var value: Output {
        get async {
            do {
                return try await futureResult(endingOnCancellation: false)
            } catch {
                // Only the future's failure or the task's cancellation could end the wait,
                // and neither can here.
                apiViolation("A future that cannot fail ended without a value: \(error)")
            }
        }
    }
}

extension Future {
    /// The value the future resolves to, awaited; the future's failure is thrown.
    ///
    /// Subscribes to the future and suspends until it publishes its value, or throws the
    /// error it fails with. When the task is cancelled while it waits, the wait ends with
    /// `CancellationError` (a value the future already holds is still returned).
    ///
    /// ```swift
    /// let download = Future<Data, URLError> { promise in fetch(completion: promise) }
    /// do {
    ///     let data = try await download.value
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// ```
    public final var value: Output {
        get async throws {
            try await futureResult(endingOnCancellation: true)
        }
    }

    private func futureResult(endingOnCancellation: Bool) async throws -> Output {
        let waiter = FutureWaiter<Output, Failure>()
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                waiter.start(continuation, subscribingTo: self)
            }.value
        } onCancel: {
            if endingOnCancellation { waiter.cancel() }
        }
    }
}

/// Waits for a future's result on behalf of `Future.value`: asks for one value and resumes
/// the waiting task once with the value, the failure, or (after ``cancel()``) a
/// `CancellationError`.
///
/// A task that is already cancelled runs its cancellation handler before the wait starts:
/// the waiter then still subscribes, so that a result the future already holds is returned,
/// and ends the wait only if none arrived during the subscription.
private final class FutureWaiter<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    /// The value on its way from the future's thread to the waiting task. Unchecked, as
    /// `Future.value` is in Apple's Combine: the future hands its value to every subscriber.
    struct Delivery: @unchecked Sendable {
        let value: Input
    }

    private let lock = Lock()
    private var continuation: UnsafeContinuation<Delivery, Error>?
    private var subscription: Subscription?
    private var cancelled = false
    private var ended = false

    let combineIdentifier = CombineIdentifier()

    func start(_ continuation: UnsafeContinuation<Delivery, Error>, subscribingTo future: Future<Input, Failure>) {
        lock.withLock { self.continuation = continuation }
        future.subscribe(self)
        let cancelledBefore = lock.withLock { cancelled }
        if cancelledBefore { cancel() }
    }

    func receive(subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard !ended, self.subscription == nil else { return false }
            self.subscription = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.max(1))
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        end(with: .success(Delivery(value: input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // A future's value arrives ahead of its `.finished`, which then finds the wait over.
        if case .failure(let error) = completion { end(with: .failure(error)) }
    }

    /// Ends the wait with `CancellationError` (unless it has ended) and cancels the subscription.
    /// Before ``start(_:subscribingTo:)`` has a continuation, it only marks the wait cancelled.
    func cancel() {
        var subscription: Subscription?  // cancelled and released after the lock
        let continuation: UnsafeContinuation<Delivery, Error>? = lock.withLock {
            cancelled = true
            guard !ended, let continuation = self.continuation.take() else { return nil }
            ended = true
            subscription = self.subscription.take()
            return continuation
        }
        subscription?.cancel()
        continuation?.resume(throwing: CancellationError())
    }

    private func end(with result: Result<Delivery, Error>) {
        var subscription: Subscription?  // released after the lock
        let continuation: UnsafeContinuation<Delivery, Error>? = lock.withLock {
            guard !ended, let continuation = self.continuation.take() else { return nil }
            ended = true
            subscription = self.subscription.take()
            return continuation
        }
        withExtendedLifetime(subscription) {}
        continuation?.resume(with: result)
    }
}
