// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes its upstream's values on and, if the upstream finishes without
    /// a value, publishes `output` before finishing.
    ///
    /// ```
    /// upstream:              -----|
    /// replaceEmpty(with: 0):  -----0|
    /// ```
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The value published if the upstream finishes having published nothing.
        public let output: Upstream.Output

        /// The publisher that may finish empty.
        public let upstream: Upstream

        /// Makes a publisher that republishes `upstream` and falls back to `output` when it
        /// finishes empty.
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
    /// Publishes `output` when this publisher finishes without having published a value.
    ///
    /// ![A marble diagram of replaceEmpty(with:), drawn from a run of it](marble-replaceEmpty)
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
