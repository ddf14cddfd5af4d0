extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given predicate.
    ///
    /// ```
    /// upstream:                  --2--4--5--|
    /// allSatisfy({ $0.isEven }):  --------false|   (upstream cancelled at 5)
    /// ```
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that indicates whether all received elements pass a predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(allSatisfying: { .success(predicate($0)) }), downstream: subscriber,
                    name: "AllSatisfy", convertFailure: sameFailure))
        }
    }

    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given error-throwing predicate.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that indicates whether all received elements pass an
        /// error-throwing predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, any Error>, Upstream.Failure, S>(
                    SearchReducer(allSatisfying: { input in Result { try predicate(input) } }),
                    downstream: subscriber, name: "TryAllSatisfy", convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given predicate.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given error-throwing predicate.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
