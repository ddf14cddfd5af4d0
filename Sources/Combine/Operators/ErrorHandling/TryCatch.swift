// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that, when its upstream fails, continues with a publisher made from the
    /// error by a closure that may throw instead.
    ///
    /// If the handler throws, the thrown error becomes the failure.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// Any error: the replacement's failure, or the error the handler throws.
        public typealias Failure = any Error

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error, or throws the error the
        /// result fails with.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that republishes `upstream` and, if it fails, the publisher that
        /// `handler` returns for the error, or fails with what `handler` throws.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let handler = self.handler
            let inner = SuccessionSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, name: "TryCatch", edges: .strict, convertFailure: anyFailure
            ) { completion in
                guard case .failure(let failure) = completion else { return .complete(.finished) }
                do {
                    return .switchTo(try handler(failure))
                } catch {
                    return .complete(.failure(error))
                }
            }
            upstream.subscribe(inner.firstSubscriber)
        }
    }
}

extension Publisher {
    /// Recovers from a failure of this publisher by switching to a publisher made from the
    /// error, or fails with the error the closure throws.
    ///
    /// ![A marble diagram of tryCatch(_:), drawn from a run of it](marble-tryCatch)
    ///
    /// Like `catch(_:)`, except that `handler` can throw: the thrown error becomes the
    /// failure of the result, whose `Failure` type is therefore `any Error`. Use it to
    /// recover from some errors and pass the others on.
    ///
    /// ```swift
    /// enum LoadError: Error { case offline, denied }
    /// let subject = PassthroughSubject<String, LoadError>()
    /// let cancellable = subject
    ///     .tryCatch { error -> Just<String> in
    ///         guard error == .offline else { throw error }
    ///         return Just("cached")
    ///     }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// subject.send("fresh")                           // Prints: fresh
    /// subject.send(completion: .failure(.offline))   // Prints: cached, finished
    /// ```
    ///
    /// A `.denied` failure would be thrown again and end the result with that error. The
    /// subscriber's outstanding demand carries over to the replacement publisher.
    ///
    /// - Parameter handler: A closure that receives the failure and returns the publisher
    ///   to continue with, or throws an error to fail with.
    /// - Returns: A ``Publishers/TryCatch`` publisher that republishes this publisher's
    ///   values, then those of the replacement if it failed.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
