// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension AsyncSequence where Self: Sendable {
    /// A publisher that publishes the elements of this asynchronous sequence, pulling each
    /// one only when the subscriber has demand for it.
    ///
    /// ```
    /// sequence: 1 2 3 (end)
    /// demand:   .max(2) ........ .max(1)
    /// out:      --1--2-----------3|
    /// ```
    ///
    /// The counterpart of Combine's `Sequence.publisher` for `AsyncSequence`, and the reverse
    /// of `Publisher.values`. Each subscription iterates the sequence in a task of its own,
    /// started at the subscriber's first request; see ``Combine/Publishers/AsyncSequence`` for the
    /// demand, completion and cancellation rules.
    ///
    /// ```swift
    /// let lines = AsyncStream<String> { continuation in
    ///     continuation.yield("first")
    ///     continuation.yield("second")
    ///     continuation.finish()
    /// }
    /// let cancellable = lines.publisher
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints (from the iterating task): first, second, finished
    /// ```
    ///
    /// - Returns: A publisher of the sequence's elements that finishes when the sequence ends
    ///   and fails with the error the sequence throws (`Never` for a sequence that cannot throw).
    public var publisher: Publishers.AsyncSequence<Self> {
        Publishers.AsyncSequence(self)
    }
}

extension Publishers {
    /// A publisher that publishes the elements of an asynchronous sequence.
    ///
    /// - **Back-pressure:** the sequence is iterated in a task of the subscription's own,
    ///   started at the subscriber's first request. The task asks the iterator for the next
    ///   element only while the subscriber has demand left (counting demand returned from
    ///   `receive(_:)`), so an element is never produced ahead of demand and nothing is
    ///   buffered.
    /// - **Completion:** `.finished` when the iterator returns `nil`; `.failure` with the error
    ///   the iterator throws, typed as the sequence's `Failure` (`Never` for a sequence that
    ///   cannot throw).
    /// - **Cancellation:** `cancel()` cancels the iterating task (an iterator that honours
    ///   task cancellation, as `AsyncStream`'s does, ends at once), wakes it if it is waiting
    ///   for demand, and releases the subscriber; no element or completion is delivered to a
    ///   subscription that has been cancelled. The task ends with the subscription: when the
    ///   sequence ends, fails, or the subscription is cancelled.
    /// - **Threads:** the subscriber is called from the iterating task, one call at a time.
    public struct AsyncSequence<Base: _Concurrency.AsyncSequence & Sendable>: Publisher {
        /// The kind of values published by this publisher: the sequence's elements.
        public typealias Output = Base.Element

        /// The kind of errors this publisher might publish: the error the sequence throws.
        public typealias Failure = Base.Failure

        /// The asynchronous sequence this publisher iterates for each subscriber.
        public let base: Base

        /// Creates a publisher of the elements of `base`.
        ///
        /// - Parameter base: The asynchronous sequence to iterate for each subscriber.
        public init(_ base: Base) {
            self.base = base
        }

        /// Attaches the specified subscriber to this publisher: hands it the subscription; the
        /// iteration starts at its first request.
        ///
        /// - Parameter subscriber: The subscriber that receives the sequence's elements.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = AsyncSequenceSubscription(base: base, downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.handedOver()
        }
    }
}

/// One subscription to a ``Publishers/AsyncSequence``: a task iterating the sequence, pulling
/// an element only against demand the subscriber has given and the task has not used yet.
private final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    private let lock = Lock()
    /// The sequence, until the task takes it at the first request.
    private var base: Base?
    /// `nil` once the sequence has ended or the subscription was cancelled.
    private var downstream: Downstream?
    /// Demand the iterating task has not used yet.
    private var credit = Subscribers.Demand.none
    /// The iterating task while it waits for demand.
    private var waiter: CheckedContinuation<Bool, Never>?
    private var task: Task<Void, Never>?
    /// The subscriber is in `receive(subscription:)`: a request made there starts the task only
    /// when that call returns (``handedOver()``), so the task's first call into the subscriber
    /// cannot overlap it.
    private var handingOver = true

    let combineIdentifier = CombineIdentifier()

    var description: String { "AsyncSequence" }

    init(base: Base, downstream: Downstream) {
        self.base = base
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.acquire()
        guard downstream != nil else {
            lock.release()
            return
        }
        credit += demand
        var resumed: CheckedContinuation<Bool, Never>?
        if let waiting = waiter {
            waiter = nil
            credit -= 1
            resumed = waiting
        }
        if !handingOver { startLocked() }
        lock.release()
        resumed?.resume(returning: true)
    }

    /// The subscriber's `receive(subscription:)` has returned: starts the task if it asked for
    /// anything there.
    func handedOver() {
        lock.acquire()
        handingOver = false
        if credit > 0 && downstream != nil { startLocked() }
        lock.release()
    }

    /// Starts the task, once.
    private func startLocked() {
        guard let base else { return }
        self.base = nil
        // The task runs a closure made here, so that it captures no type of the subscriber's.
        let work = UncheckedSendable({ [self] () async -> Void in await iterate(base) })
        task = Task { await work.value() }
    }

    func cancel() {
        lock.acquire()
        let released = downstream
        downstream = nil
        base = nil
        let waiting = waiter
        waiter = nil
        let running = task
        task = nil
        lock.release()
        waiting?.resume(returning: false)
        running?.cancel()
        withExtendedLifetime(released) {}  // the subscriber is released here, outside the lock
    }

    /// The iterating task's body: one element per unit of demand, until the sequence ends,
    /// fails, or the subscription is cancelled.
    private func iterate(_ base: Base) async {
        var iterator = base.makeAsyncIterator()
        while await takeCredit() {
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                finish(.failure(error))
                return
            }
            guard let element else {
                finish(.finished)
                return
            }
            deliver(element)
        }
    }

    /// Takes one unit of demand, waiting for the subscriber's request if there is none.
    /// Returns `false` once the subscription has ended.
    private func takeCredit() async -> Bool {
        lock.acquire()
        if downstream == nil {
            lock.release()
            return false
        }
        if credit > 0 {
            credit -= 1
            lock.release()
            return true
        }
        lock.release()
        return await withCheckedContinuation { continuation in
            lock.acquire()
            if downstream == nil {
                lock.release()
                continuation.resume(returning: false)
            } else if credit > 0 {
                credit -= 1
                lock.release()
                continuation.resume(returning: true)
            } else {
                waiter = continuation
                lock.release()
            }
        }
    }

    private func deliver(_ element: Base.Element) {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return
        }
        lock.release()
        let more = downstream.receive(element)
        guard more > 0 else { return }
        lock.acquire()
        if self.downstream != nil { credit += more }
        lock.release()
    }

    private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
        lock.acquire()
        let downstream = self.downstream
        self.downstream = nil
        task = nil
        lock.release()
        downstream?.receive(completion: completion)
    }
}
