// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that subscribes to its upstream again each time it fails, a limited or
    /// unlimited number of times.
    ///
    /// ```
    /// upstream (each subscription): --1--#
    /// retry(2):                     --1----1----1--#
    /// ```
    ///
    /// Each retry subscribes to the upstream again, so a `Deferred` upstream runs its work
    /// again. `retries == nil` retries without limit.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that is subscribed to again after each failure.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform; `nil` for unlimited attempts.
        public let retries: Int?

        /// Creates a publisher that resubscribes to `upstream` after a failure, at most
        /// `retries` times, or without limit when `retries` is `nil`.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(RetrySubscription(upstream: upstream, downstream: subscriber, retries: retries))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Subscribes to this publisher again after it fails, up to `retries` more times.
    ///
    /// ![A marble diagram of retry(_:), drawn from a run of it](marble-retry)
    ///
    /// When this publisher fails, it is subscribed again, up to `retries` times, and its
    /// values are republished as they come; a failure after that is passed on. Each new
    /// subscription starts the upstream's work again when that work is made at subscription
    /// (inside `Deferred`, for instance): if `authorize()` returns such a publisher,
    /// `health.authorize().retry(3).replaceError(with: false)` asks up to four times before
    /// settling for `false`.
    ///
    /// ```swift
    /// struct Flaky: Error {}
    /// var attempts = 0
    /// let cancellable = Deferred { () -> Result<Int, Flaky>.Publisher in
    ///     attempts += 1
    ///     return attempts < 3 ? .init(Flaky()) : .init(attempts)
    /// }
    /// .retry(2)
    /// .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 3, finished (the first two attempts failed)
    /// ```
    ///
    /// Values already published by a failed attempt are not taken back: the subscriber
    /// may see them again. Each new attempt is asked for the subscriber's outstanding
    /// demand. A negative count retries without limit.
    ///
    /// - Parameter retries: The number of times to subscribe again after a failure.
    /// - Returns: A ``Publishers/Retry`` publisher that republishes this publisher's values,
    ///   subscribing again after a failure.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

/// `retry`, in the shape of Apple's: one object is the subscriber of every attempt and the
/// subscriber's subscription.
/// - The subscriber gets this subscription when the first attempt's comes; each later
///   attempt is asked for the subscriber's outstanding demand when its subscription comes.
/// - A value beyond that demand (or before any subscription) traps. Demand the subscriber
///   returns for a value is asked of the upstream at once and `.none` is returned.
/// - A failure subscribes again while chances remain: `retries` counts down to zero and then
///   the failure goes on (a negative count never reaches zero, so it retries for ever, as
///   Apple's does); `nil` retries for ever. A failure during the subscribe of an attempt is
///   handled after it returns, so a publisher that fails at once does not grow the stack.
/// - A completion before any subscription goes on; after the end or a cancel nothing does,
///   and the subscriber is released (docs/DESIGN.md, Memory).
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let lock = Lock()
    private let upstream: Upstream
    /// `nil` after the end or a cancel.
    private var downstream: Downstream?
    private var subscription: Subscription?
    /// Retries left; `nil` is unlimited.
    private var remaining: Int?
    private var demand = Subscribers.Demand.none
    private var subscriptionSent = false
    /// Whether an attempt is being subscribed on this thread's stack, and whether it failed
    /// meanwhile so that the loop in `receive(completion:)` must subscribe again.
    private var subscribing = false
    private var failedWhileSubscribing = false

    init(upstream: Upstream, downstream: Downstream, retries: Int?) {
        self.upstream = upstream
        self.downstream = downstream
        self.remaining = retries
    }

    var description: String { "Retry" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        lock.acquire()
        guard let downstream, self.subscription == nil else {
            lock.release()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        let demand = self.demand
        let sendSubscription = !subscriptionSent
        subscriptionSent = true
        lock.release()
        if sendSubscription { downstream.receive(subscription: self) }
        if demand != .none { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return .none
        }
        apiPrecondition(demand > 0, "Retry received a value its subscriber did not request")
        demand -= 1
        lock.release()
        let more = downstream.receive(input)
        guard more > 0 else { return .none }
        lock.acquire()
        demand += more
        let subscription = self.subscription
        lock.release()
        subscription?.request(more)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return
        }
        if case .failure = completion, remaining != 0 {
            subscription = nil
            remaining = remaining.map { $0 - 1 }
            if subscribing {
                failedWhileSubscribing = true
                lock.release()
                return
            }
            repeat {
                subscribing = true
                failedWhileSubscribing = false
                lock.release()
                upstream.subscribe(self)
                lock.acquire()
                subscribing = false
            } while failedWhileSubscribing && self.downstream != nil
            lock.release()
            return
        }
        self.downstream = nil
        let subscription = self.subscription.take()
        lock.release()
        withExtendedLifetime(subscription) {}  // released here, outside the lock
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        // Apple's `retry` does not check for `.none` here.
        lock.acquire()
        guard downstream != nil else {
            lock.release()
            return
        }
        self.demand += demand
        let subscription = self.subscription
        lock.release()
        subscription?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let subscription = self.subscription.take()
        lock.release()
        subscription?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
