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
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
