// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes each upstream value through a throwing `transform`, publishes
    /// the non-`nil` results unwrapped, and fails with the error `transform` throws.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: one thrown by `transform`, or the upstream's own failure.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The closure called with each upstream value: `nil` skips the value, a thrown error
        /// ends the stream.
        public let transform: (Upstream.Output) throws -> Output?

        /// Makes a publisher that publishes the non-`nil` results of the throwing `transform`
        /// over the values of `upstream`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(
                SteppingSubscriber<TryTransformStepper<Upstream.Output, Output>, Upstream.Failure, S>(
                    TryTransformStepper(transform: transform), downstream: subscriber, name: "TryCompactMap",
                    edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Transforms each value with a throwing `transform`, publishes the results that are not
    /// `nil`, unwrapped, and fails with any error `transform` throws.
    ///
    /// ![A marble diagram of tryCompactMap(_:), drawn from a run of it](marble-tryCompactMap)
    ///
    /// A non-`nil` result is published unwrapped; a `nil` result is dropped and replaced by
    /// asking the upstream for one more element. If the closure throws, the upstream is
    /// cancelled and the error is the failure the subscriber receives; the failure type
    /// becomes `any Error` (an upstream failure arrives as it is).
    ///
    /// ```swift
    /// enum ParseError: Error { case empty }
    ///
    /// let cancellable = ["1", "x", "3", "", "5"].publisher
    ///     .tryCompactMap { text -> Int? in
    ///         if text.isEmpty { throw ParseError.empty }
    ///         return Int(text)
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: 1, 3, then failed: empty
    /// ```
    ///
    /// - Parameter transform: An error-throwing closure that receives one element and returns
    ///   a value to publish, `nil` to skip the element, or throws to end the stream.
    /// - Returns: A ``Publishers/TryCompactMap`` that publishes the non-`nil` results and
    ///   fails with `any Error`.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a compact-map into this try-compact-map.
    ///
    /// ![A marble diagram of compactMap(_:), drawn from a run of it](marble-TryCompactMap-compactMap)
    ///
    /// - Parameter transform: An error-throwing closure applied to each non-`nil` result of
    ///   this try-compact-map's closure.
    /// - Returns: One ``Publishers/TryCompactMap`` over the same upstream that applies both
    ///   closures.
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}
