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
    ///
    /// Elements from the upstream pass through unchanged. If the upstream finishes without
    /// having published anything, `output` is published first and then the stream finishes;
    /// an upstream failure passes through with nothing added. As in Apple's Combine, the
    /// operator asks the upstream for an unlimited number of elements as soon as the
    /// subscriber has its subscription and passes them on whatever the subscriber asked for;
    /// the replacement itself waits for the subscriber's first request.
    ///
    /// ```swift
    /// let cancellable = [Int]().publisher
    ///     .replaceEmpty(with: 0)
    ///     .sink { print($0) }
    /// // Prints: 0
    /// ```
    ///
    /// - Parameter output: The element to publish when the upstream finishes empty.
    /// - Returns: A ``Publishers/ReplaceEmpty`` that publishes the upstream's elements, or
    ///   `output` alone if there were none.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
