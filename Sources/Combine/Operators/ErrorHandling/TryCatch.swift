extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher or producing a new error.
    ///
    /// If the handler throws, the thrown error becomes the failure.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and either returns a
        /// publisher to replace the upstream publisher or throws a new error.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing
        /// the failed publisher with another publisher or by throwing an error.
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
    /// Handles errors from an upstream publisher by either replacing it with another
    /// publisher or throwing a new error.
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
