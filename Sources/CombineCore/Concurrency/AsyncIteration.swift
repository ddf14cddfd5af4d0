/// The subscriber behind the iterators of ``AsyncPublisher`` and ``AsyncThrowingPublisher``.
///
/// Each `next()` requests one value and suspends until the value, the completion or the
/// task's cancellation arrives. At most one `next()` waits at a time (iterators are not
/// shared between tasks). Cancelling the task, or dropping the iterator, cancels the
/// subscription.
final class AsyncIteration<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    private enum Phase {
        /// Subscribed (or about to be); running normally.
        case active
        /// The completion arrived while no `next()` was waiting; the next call reports it.
        case completed(Subscribers.Completion<Failure>)
        /// Finished, failed (and reported) or cancelled: every `next()` returns `nil`.
        case done
    }

    /// An element on its way from the publisher's thread to the task awaiting it.
    ///
    /// Unchecked, as Apple's `values` is: the publisher hands the element over and the
    /// subscriber keeps no copy, but nothing stops a publisher from sharing a non-`Sendable`
    /// element it also keeps.
    struct Delivery: @unchecked Sendable {
        let element: Input?
    }

    /// What `next()` does after leaving the lock.
    private enum Step {
        case request(Subscription?)
        case finish(Result<Delivery, Error>)
    }

    private let lock = Lock()
    private var phase = Phase.active
    private var subscription: Subscription?
    /// A `next()` is waiting, but the subscription has not arrived yet to request from.
    private var requestOnSubscription = false
    private var waiting: UnsafeContinuation<Delivery, Error>?

    let combineIdentifier = CombineIdentifier()

    var description: String { "AsyncIteration" }

    func receive(subscription: Subscription) {
        let request: Bool? = lock.withLock {
            guard case .active = phase, self.subscription == nil else { return nil }
            self.subscription = subscription
            defer { requestOnSubscription = false }
            return requestOnSubscription
        }
        switch request {
        case nil: subscription.cancel()
        case true?: subscription.request(.max(1))
        case false?: break
        }
    }

    /// A value is requested only while a `next()` waits for it (one at a time). A value while
    /// none waits and the iteration is still running was sent without demand: Apple's
    /// `AsyncPublisher` traps on that, and so does this one. After cancellation or completion a
    /// late value is dropped.
    func receive(_ input: Input) -> Subscribers.Demand {
        var unrequested = false
        let continuation: UnsafeContinuation<Delivery, Error>? = lock.withLock {
            defer { waiting = nil }
            if waiting == nil, case .active = phase { unrequested = true }
            return waiting
        }
        precondition(!unrequested, "Received an output without requesting demand")
        continuation?.resume(returning: Delivery(element: input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        var subscription: Subscription?  // released after the lock
        let continuation: UnsafeContinuation<Delivery, Error>? = lock.withLock {
            guard case .active = phase else { return nil }
            subscription = self.subscription.take()
            guard let waiting else {
                phase = .completed(completion)
                return nil
            }
            phase = .done
            self.waiting = nil
            return waiting
        }
        _ = subscription
        continuation?.resume(with: Self.result(of: completion))
    }

    /// Ends the iteration: cancels the subscription and lets a waiting `next()` return `nil`.
    func cancel() {
        lock.acquire()
        let phase = self.phase  // a failure it held is released after the lock
        self.phase = .done
        let subscription = self.subscription.take()
        let continuation = waiting.take()
        lock.release()
        subscription?.cancel()
        continuation?.resume(returning: Delivery(element: nil))
        _ = phase
    }

    /// Requests one value and waits for it; `nil` once finished or cancelled; throws the
    /// failure once.
    func next() async throws -> Input? {
        try await nextDelivery().element
    }

    private func nextDelivery() async throws -> Delivery {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Delivery, Error>) in
                let step: Step = lock.withLock {
                    switch phase {
                    case .done:
                        return .finish(.success(Delivery(element: nil)))
                    case .completed(let completion):
                        phase = .done
                        return .finish(Self.result(of: completion))
                    case .active:
                        waiting = continuation
                        if subscription == nil { requestOnSubscription = true }
                        return .request(subscription)
                    }
                }
                switch step {
                case .request(let subscription): subscription?.request(.max(1))
                case .finish(let result): continuation.resume(with: result)
                }
            }
        } onCancel: {
            cancel()
        }
    }

    private static func result(of completion: Subscribers.Completion<Failure>) -> Result<Delivery, Error> {
        switch completion {
        case .finished: .success(Delivery(element: nil))
        case .failure(let error): .failure(error)
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
