// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream
    /// publisher, when it finishes.
    ///
    /// ```
    /// upstream: --a--b--c--|
    /// count():  -----------3|
    /// ```
    public struct Count<Upstream: Publisher>: Publisher {
        /// It sends a single `Int`, the number of elements counted.
        public typealias Output = Int
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// Creates a publisher that counts the upstream's elements and sends the total when the
        /// upstream finishes.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Int {
            upstream.subscribe(
                ReducingSubscription<CountReducer<Upstream.Output, Failure>, Failure, S>(
                    CountReducer(), downstream: subscriber, name: "Count", convertFailure: sameFailure))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the number of elements the upstream publisher produced, once it finishes.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-count)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and counts
    /// the elements. When the upstream finishes, it publishes the count (`0` for an empty
    /// upstream), followed by `.finished`, once the subscriber has requested a value. An
    /// upstream failure is passed on without a count.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .count()
    ///     .sink { print($0) }
    /// // Prints: 3
    /// ```
    ///
    /// - Returns: A `Publishers.Count` publisher that publishes the number of upstream
    ///   elements as an `Int`.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
