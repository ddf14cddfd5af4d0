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
        /// The kind of values published by this publisher.
        public typealias Output = P.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that “flattens” nested publishers.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
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
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// ```swift
    /// $query.map { search($0) }.switchToLatest()   // a new query cancels the one in flight
    /// ```
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Failure == Never, Output: Publisher {
    /// Republishes elements sent by the most recently received publisher, when the upstream
    /// never fails but the inner publishers may.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        setFailureType(to: Output.Failure.self).switchToLatest()
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when neither the
    /// upstream nor the inner publishers fail.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, when the inner
    /// publishers never fail but the upstream may.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}
