// SPDX-License-Identifier: Apache-2.0
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
