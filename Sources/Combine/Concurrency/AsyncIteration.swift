import CombineSynchronization

/// The subscriber behind the iterators of ``AsyncPublisher`` and ``AsyncThrowingPublisher``.
///
/// Each `next()` asks for one value and suspends until a value, the completion or a cancel
/// arrives. Several `next()` calls may wait at once (copies of one iterator used from several
/// tasks, as Apple's allows): they are answered in the order they asked. Before the
/// subscription arrives their requests are added up and asked for when it comes.
///
/// As Apple's: a completion answers the oldest waiting call (`nil`, or the failure thrown) and
/// every other with `nil`; with none waiting, a failure is kept for the next call to throw,
/// after which calls return `nil`. Cancelling any waiting call's task, or the iteration,
/// cancels the subscription and answers every waiting call with `nil`; so does dropping the
/// last copy of the iterator here. A value that comes while the iteration is not subscribed
/// (before the subscription, after the end) answers the waiting calls with `nil` and is
/// dropped; a value nobody asked for traps, as Apple's does.
final class AsyncIteration<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    private enum State {
        case awaitingSubscription
        case subscribed(Subscription)
        /// Completed or cancelled; a failure nobody has been told of yet.
        case terminal(Failure?)
    }

    /// What a waiting call is answered with.
    ///
    /// Unchecked, as Apple's `values` is: the publisher hands the element over and the
    /// subscriber keeps no copy, but nothing stops a publisher from sharing a non-`Sendable`
    /// element it also keeps.
    private enum Answer: @unchecked Sendable {
        case element(Input)
        case end
        case failure(Failure)
    }

    /// One waiting `next()`: its continuation and, once answered, its answer (both guarded by
    /// the lock).
    ///
    /// The answer travels in this box, written under the lock, not through the continuation:
    /// the resumed call takes the lock before it reads it. The hand-over of a continuation's
    /// payload happens inside the concurrency runtime, where ThreadSanitizer cannot see it, and
    /// was reported as a race; a continuation of `Void` carries nothing.
    ///
    /// The continuation is taken out under the lock and resumed after it is released. Resuming
    /// takes the task's own status lock, and a task being cancelled holds that lock while its
    /// cancellation handler runs, which takes ours (``cancel()``): resuming with our lock held
    /// deadlocked against a cancel of the waiting task.
    private final class Waiter {
        var continuation: UnsafeContinuation<Void, Never>?
        var answer = Answer.end
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// The calls waiting for an answer, oldest first.
    private var waiting = RingQueue<Waiter>()
    private var demandBeforeSubscription = Subscribers.Demand.none

    let combineIdentifier = CombineIdentifier()

    var description: String { "AsyncIteration" }

    func receive(subscription: Subscription) {
        lock.acquire()
        guard case .awaitingSubscription = state else {
            lock.release()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        let demand = demandBeforeSubscription
        demandBeforeSubscription = .none
        lock.release()
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard case .subscribed = state else {
            let ended = endAllWaitingLocked()
            lock.release()
            Self.resume(ended)
            return .none
        }
        guard let waiter = waiting.popFirst() else {
            lock.release()
            preconditionFailure("Received an output without requesting demand")
        }
        let continuation = Self.answerLocked(waiter, with: .element(input))
        lock.release()
        continuation?.resume()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        let previous = state  // the upstream's subscription, released after the lock
        if case .terminal = state {
            let ended = endAllWaitingLocked()
            lock.release()
            Self.resume(ended)
            return
        }
        guard let oldest = waiting.popFirst() else {
            if case .failure(let error) = completion {
                state = .terminal(error)
            } else {
                state = .terminal(nil)
            }
            lock.release()
            _ = previous
            return
        }
        state = .terminal(nil)
        let answered: UnsafeContinuation<Void, Never>?
        switch completion {
        case .finished: answered = Self.answerLocked(oldest, with: .end)
        case .failure(let error): answered = Self.answerLocked(oldest, with: .failure(error))
        }
        let ended = endAllWaitingLocked()
        lock.release()
        answered?.resume()
        Self.resume(ended)
        _ = previous
    }

    func cancel() {
        lock.acquire()
        let previous = state  // a failure it held is released after the lock
        state = .terminal(nil)
        let ended = endAllWaitingLocked()
        lock.release()
        Self.resume(ended)
        if case .subscribed(let subscription) = previous { subscription.cancel() }
    }

    /// Asks for one value and waits for it: `nil` at the end, the failure thrown.
    func next() async throws -> Input? {
        switch await nextAnswer() {
        case .element(let element): return element
        case .end: return nil
        case .failure(let error): throw error
        }
    }

    private func nextAnswer() async -> Answer {
        let waiter = Waiter()
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                lock.acquire()
                switch state {
                case .awaitingSubscription:
                    waiter.continuation = continuation
                    waiting.append(waiter)
                    demandBeforeSubscription += 1
                    lock.release()
                case .subscribed(let subscription):
                    waiter.continuation = continuation
                    waiting.append(waiter)
                    lock.release()
                    subscription.request(.max(1))
                case .terminal(nil):
                    lock.release()
                    continuation.resume()
                case .terminal(let error?):
                    state = .terminal(nil)
                    waiter.answer = .failure(error)
                    lock.release()
                    continuation.resume()
                }
            }
        } onCancel: {
            cancel()
        }
        // The answer was written under the lock before the continuation was resumed.
        lock.acquire()
        let answer = waiter.answer
        lock.release()
        return answer
    }

    /// Under the lock: answers a waiting call; returns its continuation, to resume once the
    /// lock is released.
    private static func answerLocked(_ waiter: Waiter, with answer: Answer) -> UnsafeContinuation<Void, Never>? {
        waiter.answer = answer
        return waiter.continuation.take()
    }

    /// Under the lock: answers every waiting call with the end; returns their continuations, to
    /// resume once the lock is released.
    private func endAllWaitingLocked() -> [UnsafeContinuation<Void, Never>] {
        var continuations: [UnsafeContinuation<Void, Never>] = []
        while let waiter = waiting.popFirst() {
            if let continuation = Self.answerLocked(waiter, with: .end) { continuations.append(continuation) }
        }
        return continuations
    }

    /// Resumes answered calls (after the lock is released).
    private static func resume(_ continuations: [UnsafeContinuation<Void, Never>]) {
        for continuation in continuations { continuation.resume() }
    }
}

/// Cancels the iteration when the last copy of its iterator goes away, so that leaving a
/// `for`-`await` loop early releases the subscription.
final class AsyncIterationLifetime<Input, Failure: Error>: @unchecked Sendable {
    let iteration = AsyncIteration<Input, Failure>()

    /// Starts an iteration of `publisher`: subscribes at once, requests nothing yet.
    static func subscribing<P: Publisher>(to publisher: P) -> AsyncIterationLifetime
    where P.Output == Input, P.Failure == Failure {
        let lifetime = AsyncIterationLifetime()
        publisher.subscribe(lifetime.iteration)
        return lifetime
    }

    deinit {
        iteration.cancel()
    }
}
