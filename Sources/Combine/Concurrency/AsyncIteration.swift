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

    /// An element on its way from the publisher's thread to the task awaiting it.
    ///
    /// Unchecked, as Apple's `values` is: the publisher hands the element over and the
    /// subscriber keeps no copy, but nothing stops a publisher from sharing a non-`Sendable`
    /// element it also keeps.
    struct Delivery: @unchecked Sendable {
        let element: Input?
    }

    private typealias Waiter = UnsafeContinuation<Delivery, Error>

    private let lock = Lock()
    private var state = State.awaitingSubscription
    /// The calls waiting for an answer, oldest first.
    private var waiting = RingQueue<Waiter>()
    /// What the calls made before the subscription asked for.
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
            let waiting = takeWaitingLocked()
            lock.release()
            Self.answerWithNil(waiting)
            return .none
        }
        guard let waiter = waiting.popFirst() else {
            lock.release()
            preconditionFailure("Received an output without requesting demand")
        }
        lock.release()
        waiter.resume(returning: Delivery(element: input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        let previous = state  // the upstream's subscription, released after the lock
        if case .terminal = state {
            let waiting = takeWaitingLocked()
            lock.release()
            Self.answerWithNil(waiting)
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
        let others = takeWaitingLocked()
        lock.release()
        _ = previous
        switch completion {
        case .finished: oldest.resume(returning: Delivery(element: nil))
        case .failure(let error): oldest.resume(throwing: error)
        }
        Self.answerWithNil(others)
    }

    /// Ends the iteration: cancels the subscription and answers every waiting call with `nil`.
    func cancel() {
        lock.acquire()
        let previous = state  // a failure it held is released after the lock
        state = .terminal(nil)
        let waiting = takeWaitingLocked()
        lock.release()
        if case .subscribed(let subscription) = previous { subscription.cancel() }
        Self.answerWithNil(waiting)
    }

    /// Requests one value and waits for it; `nil` once finished or cancelled; throws the
    /// failure once.
    func next() async throws -> Input? {
        try await nextDelivery().element
    }

    private func nextDelivery() async throws -> Delivery {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: Waiter) in
                lock.acquire()
                switch state {
                case .awaitingSubscription:
                    waiting.append(continuation)
                    demandBeforeSubscription += 1
                    lock.release()
                case .subscribed(let subscription):
                    waiting.append(continuation)
                    lock.release()
                    subscription.request(.max(1))
                case .terminal(nil):
                    lock.release()
                    continuation.resume(returning: Delivery(element: nil))
                case .terminal(let error?):
                    state = .terminal(nil)
                    lock.release()
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private func takeWaitingLocked() -> RingQueue<Waiter> {
        defer { waiting = RingQueue() }
        return waiting
    }

    private static func answerWithNil(_ waiting: consuming RingQueue<Waiter>) {
        while let waiter = waiting.popFirst() {
            waiter.resume(returning: Delivery(element: nil))
        }
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
