extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream
    /// publisher's completion state (finished or failed).
    ///
    /// ```
    /// upstream:       --a--b--c--|
    /// ignoreOutput(): -----------|
    /// ```
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Never
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Never {
            upstream.subscribe(
                ReducingSubscription<IgnoreReducer<Upstream.Output, Failure>, Failure, S>(
                    IgnoreReducer(), downstream: subscriber, name: "IgnoreOutput", convertFailure: sameFailure))
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion
    /// state (finished or failed).
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
