extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// ```
    /// upstream:              -----|
    /// replaceEmpty(with: 0):  -----0|
    /// ```
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering
        /// any elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an empty stream with a provided element.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let output = self.output
            upstream.subscribe(
                FallbackSubscription<Failure, S>(downstream: subscriber, name: "ReplaceEmpty", rule: .asksForEverything)
                {
                    completion, received in
                    if case .finished = completion, !received { return (output, .finished) }
                    return (nil, completion)
                })
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
