// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes its upstream's values on and turns an upstream failure into one
    /// last value, `output`, followed by a normal finish.
    ///
    /// ```
    /// upstream:            --1--2--#
    /// replaceError(with:0): --1--2--0|
    /// ```
    ///
    /// The replacement is published once the subscriber has demand for it.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// `Never`: an upstream failure becomes `output`.
        public typealias Failure = Never

        /// The value published in place of an upstream failure.
        public let output: Upstream.Output

        /// The publisher whose failure is replaced.
        public let upstream: Upstream

        /// Makes a publisher that republishes `upstream` and publishes `output`, then finishes,
        /// if it fails.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == Never {
            let output = self.output
            upstream.subscribe(
                FallbackSubscription<Upstream.Failure, S>(
                    downstream: subscriber, name: "ReplaceError", rule: .countsDemand
                ) {
                    completion, _ in
                    if case .failure = completion { return (output, .finished) }
                    return (nil, .finished)
                })
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Turns a failure of this publisher into the value `output` followed by a normal finish.
    ///
    /// ![A marble diagram of replaceError(with:), drawn from a run of it](marble-replaceError)
    ///
    /// Elements pass through unchanged. If the upstream fails, the error is dropped:
    /// `output` is published instead (as soon as the subscriber has demand for it) and the
    /// stream finishes normally. The result can't fail, so its `Failure` is `Never` and it can
    /// feed `assign(to:on:)` or `sink(receiveValue:)`. Requests and the cancel go straight to
    /// the upstream.
    ///
    /// ```swift
    /// struct Offline: Error {}
    ///
    /// let subject = PassthroughSubject<Int, Offline>()
    /// let cancellable = subject
    ///     .replaceError(with: -1)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// subject.send(1)
    /// subject.send(completion: .failure(Offline()))
    /// // Prints: 1, -1, then finished
    /// ```
    ///
    /// - Parameter output: The element to publish in place of an upstream failure.
    /// - Returns: A ``Publishers/ReplaceError`` that publishes the upstream's elements, then
    ///   `output` if it fails, and never fails itself.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
