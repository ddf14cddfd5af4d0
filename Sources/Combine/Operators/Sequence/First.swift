extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// ```
    /// upstream: --a--b--c--|
    /// first():  --a|          (upstream cancelled)
    /// ```
    public struct First<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of a stream, then finishes.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, Failure>, Failure, S>(
                    SearchReducer(findingFirst: true) { _ in .success(true) }, downstream: subscriber, name: "First",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a predicate
    /// closure.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that only publishes the first element of a stream to satisfy
        /// a predicate closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, Failure>, Failure, S>(
                    SearchReducer(findingFirst: true) { .success(predicate($0)) }, downstream: subscriber,
                    // Apple's first(where:) subscription describes itself as "TryFirst".
                    name: "TryFirst", convertFailure: sameFailure))
        }
    }

    /// A publisher that only publishes the first element of a stream to satisfy a throwing
    /// predicate closure.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that only publishes the first element of a stream to satisfy
        /// a throwing predicate closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, any Error>, Upstream.Failure, S>(
                    SearchReducer(findingFirst: true) { input in Result { try predicate(input) } },
                    downstream: subscriber, name: "TryFirstWhere", convertFailure: anyFailure))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes
    /// normally.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Publishes the first element of a stream to satisfy a throwing predicate closure, then
    /// finishes normally.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}
