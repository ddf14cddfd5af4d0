extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher.
    ///
    /// ```
    /// upstream:              --1--2--#
    /// catch { _ in Just(0) }: --1--2--0|
    /// ```
    ///
    /// The subscriber's outstanding demand carries over to the replacement publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing
        /// the failed publisher with another publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where NewPublisher.Failure == S.Failure, Upstream.Output == S.Input {
            let handler = self.handler
            let inner = SuccessionSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, name: "Catch", edges: .strict, convertFailure: sameFailure
            ) { completion in
                guard case .failure(let failure) = completion else { return .complete(.finished) }
                return .switchTo(handler(failure))
            }
            upstream.subscribe(inner.firstSubscriber)
        }
    }

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

    /// A publisher that attempts to recreate its subscription to a failed upstream
    /// publisher.
    ///
    /// ```
    /// upstream (each subscription): --1--#
    /// retry(2):                     --1----1----1--#
    /// ```
    ///
    /// Each retry subscribes to the upstream again, so a `Deferred` upstream runs its work
    /// again. `retries == nil` retries without limit.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform; `nil` for unlimited attempts.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed
        /// upstream publisher.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(RetrySubscription(upstream: upstream, downstream: subscriber, retries: retries))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// ```swift
    /// Just(data).decode(type: Trick.self, decoder: JSONDecoder()).catch { _ in Just(.placeholder) }
    /// ```
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }

    /// Handles errors from an upstream publisher by either replacing it with another
    /// publisher or throwing a new error.
    public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }

    /// Attempts to recreate a failed subscription with the upstream publisher up to the
    /// number of times you specify.
    ///
    /// ```swift
    /// health.authorize().retry(3).replaceError(with: false)
    /// ```
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
