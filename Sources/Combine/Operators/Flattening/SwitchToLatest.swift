// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that flattens nested publishers, subscribing only to the most recent one.
    ///
    /// ```
    /// upstream:        --A--------B--------|
    /// A:                 --a1--a2--a3       (cancelled when B arrives)
    /// B:                          --b1--b2|
    /// switchToLatest:  ----a1--a2---b1--b2|
    /// ```
    ///
    /// It finishes when the upstream and the latest inner publisher have finished.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The type of values of the publishers the upstream emits.
        public typealias Output = P.Output
        /// The failure type shared by the upstream and the publishers it emits.
        public typealias Failure = P.Failure

        /// The publisher whose values are the inner publishers.
        public let upstream: Upstream

        /// Creates a publisher that follows the latest inner publisher `upstream` emits.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where P.Output == S.Input, Upstream.Failure == S.Failure {
            FlatMapSubscription<Upstream, P, S>(
                downstream: subscriber, maxPublishers: .unlimited, switching: true, name: "SwitchToLatest",
                transform: { $0 }
            )
            .subscribe(to: upstream)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Publishes the values of the latest publisher this publisher has emitted, dropping the
    /// previous one.
    ///
    /// ![A marble diagram of switchToLatest(), drawn from a run of it](marble-switchToLatest)
    ///
    /// This publisher's values are themselves publishers. Each new one is subscribed and the
    /// previous one cancelled, so only the latest publisher's values are published. The
    /// usual case is a search where a new query cancels the one in flight:
    /// `$query.map { search($0) }.switchToLatest()`.
    ///
    /// ```swift
    /// struct Failed: Error {}
    /// let first = PassthroughSubject<String, Failed>()
    /// let second = PassthroughSubject<String, Failed>()
    /// let sources = PassthroughSubject<PassthroughSubject<String, Failed>, Failed>()
    /// let cancellable = sources.switchToLatest()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// sources.send(first)
    /// first.send("a")        // Prints: a
    /// sources.send(second)   // cancels the subscription to first
    /// first.send("b")        // not published
    /// second.send("c")       // Prints: c
    /// ```
    ///
    /// Demand: the upstream is asked for unlimited publishers; the current inner publisher
    /// is asked for the subscriber's outstanding demand, and later requests are passed on to
    /// it. A value from the current inner publisher beyond the subscriber's outstanding
    /// demand stops the program with a precondition failure, as in Apple's Combine.
    ///
    /// The result finishes once the upstream and the latest inner publisher have finished.
    /// It fails as soon as the upstream or the current inner publisher fails; a failing inner
    /// publisher also cancels the upstream.
    ///
    /// - Returns: A ``Publishers/SwitchToLatest`` publisher that publishes the values of the
    ///   most recent inner publisher.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// Publishes the values of the latest inner publisher, for an upstream that can't fail and
    /// inner publishers that can.
    ///
    /// ![A marble diagram of switchToLatest(), drawn from a run of it](marble-switchToLatest)
    ///
    /// The upstream's `Never` is adapted to the inner publishers' failure type; otherwise it
    /// behaves as the general `switchToLatest()`.
    ///
    /// ```swift
    /// struct Failed: Error {}
    /// let sources = PassthroughSubject<PassthroughSubject<Int, Failed>, Never>()
    /// let inner = PassthroughSubject<Int, Failed>()
    /// let cancellable = sources.switchToLatest()   // Failure == Failed
    ///     .sink(receiveCompletion: { _ in print("ended") }, receiveValue: { print($0) })
    /// sources.send(inner)
    /// inner.send(1)                                // Prints: 1
    /// inner.send(completion: .failure(Failed()))   // Prints: ended
    /// ```
    ///
    /// - Returns: A ``Publishers/SwitchToLatest`` over this publisher with its failure type
    ///   set to the inner publishers' (``Publishers/SetFailureType``).
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Publishes the values of the latest inner publisher, when neither the upstream nor the
    /// inner publishers can fail.
    ///
    /// ![A marble diagram of switchToLatest(), drawn from a run of it](marble-switchToLatest)
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let cancellable = queries
    ///     .map { text in [text, text.uppercased()].publisher }
    ///     .switchToLatest()
    ///     .sink { print($0) }
    /// queries.send("a")   // Prints: a, A
    /// queries.send("b")   // Prints: b, B
    /// ```
    ///
    /// It behaves as the general `switchToLatest()` and never fails.
    ///
    /// - Returns: A ``Publishers/SwitchToLatest`` publisher that publishes the values of the
    ///   most recent inner publisher.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Publishes the values of the latest inner publisher, for inner publishers that can't
    /// fail and an upstream that can.
    ///
    /// ![A marble diagram of switchToLatest(), drawn from a run of it](marble-switchToLatest)
    ///
    /// Each inner publisher's `Never` is adapted to the upstream's failure type; otherwise it
    /// behaves as the general `switchToLatest()`. Only the upstream can fail the result.
    ///
    /// ```swift
    /// struct Failed: Error {}
    /// let queries = PassthroughSubject<String, Failed>()
    /// let cancellable = queries
    ///     .map { Just($0.count) }   // Just never fails
    ///     .switchToLatest()         // Failure == Failed
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// queries.send("abc")                   // Prints: 3
    /// queries.send(completion: .finished)   // Prints: finished
    /// ```
    ///
    /// - Returns: A ``Publishers/SwitchToLatest`` over a ``Publishers/Map`` that sets each
    ///   inner publisher's failure type to this publisher's.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}
