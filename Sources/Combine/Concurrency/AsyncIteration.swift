// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Synchronization

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

    /// One waiting `next()`: the number it drew and its continuation.
    private struct Waiter {
        let number: UInt64
        let continuation: UnsafeContinuation<Void, Never>
    }

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// The calls waiting for an answer, oldest first.
    private var waiting = RingQueue<Waiter>()
    /// Answers given and not yet read, by the number of the call they answer.
    ///
    /// An answer is written here under the lock, not passed through the continuation, and the
    /// resumed call takes the lock before it reads it: the hand-over of a continuation's payload
    /// happens inside the concurrency runtime, where ThreadSanitizer cannot see it, and was
    /// reported as a race; a continuation of `Void` carries nothing. Usually one entry; the
    /// arrays keep their capacity, so answering allocates nothing. (The numbers have an array
    /// of their own: searching an array of a generic element copied each element through a
    /// heap buffer.)
    ///
    /// A continuation is taken out under the lock and resumed after it is released. Resuming
    /// takes the task's own status lock, and a task being cancelled holds that lock while its
    /// cancellation handler runs, which takes ours (``cancel()``): resuming with our lock held
    /// deadlocked against a cancel of the waiting task.
    private var answerNumbers: [UInt64] = []
    private var answers: [Answer] = []
    /// The number the next `next()` draws (before it takes the lock: a number kept in a
    /// variable its closures set would be a heap-allocated box each call).
    private let numbers = Atomic<UInt64>(0)
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
            apiViolation("Received an output without requesting demand")
        }
        answerLocked(waiter.number, with: .element(input))
        lock.release()
        waiter.continuation.resume()
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
            withExtendedLifetime(previous) {}
            return
        }
        state = .terminal(nil)
        switch completion {
        case .finished: break  // a call with no answer finds the end
        case .failure(let error): answerLocked(oldest.number, with: .failure(error))
        }
        let ended = endAllWaitingLocked()
        lock.release()
        oldest.continuation.resume()
        Self.resume(ended)
        withExtendedLifetime(previous) {}
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
        let number = numbers.wrappingAdd(1, ordering: .relaxed).oldValue
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                lock.acquire()
                switch state {
                case .awaitingSubscription:
                    waiting.append(Waiter(number: number, continuation: continuation))
                    demandBeforeSubscription += 1
                    lock.release()
                case .subscribed(let subscription):
                    waiting.append(Waiter(number: number, continuation: continuation))
                    lock.release()
                    subscription.request(.max(1))
                case .terminal(nil):
                    lock.release()
                    continuation.resume()
                case .terminal(let error?):
                    state = .terminal(nil)
                    answerLocked(number, with: .failure(error))
                    lock.release()
                    continuation.resume()
                }
            }
        } onCancel: {
            cancel()
        }
        // The answer was written under the lock before the continuation was resumed; a call
        // answered with the end may have none.
        lock.acquire()
        let answer = takeAnswerLocked(number)
        lock.release()
        return answer
    }

    /// Under the lock: removes and returns the answer to call `number`; the end if it has none.
    private func takeAnswerLocked(_ number: UInt64) -> Answer {
        guard let index = answerNumbers.firstIndex(of: number) else { return .end }
        answerNumbers.remove(at: index)
        return answers.remove(at: index)
    }

    /// Under the lock: answers a call taken off the waiting queue; its continuation is resumed
    /// once the lock is released.
    private func answerLocked(_ number: UInt64, with answer: Answer) {
        answerNumbers.append(number)
        answers.append(answer)
    }

    /// Under the lock: answers every waiting call with the end; returns their continuations, to
    /// resume once the lock is released.
    private func endAllWaitingLocked() -> [UnsafeContinuation<Void, Never>] {
        var continuations: [UnsafeContinuation<Void, Never>] = []
        while let waiter = waiting.popFirst() {
            continuations.append(waiter.continuation)  // no answer kept: a call finds none, the end
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
