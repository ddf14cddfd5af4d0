extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specified element from its
    /// upstream publisher.
    ///
    /// ```
    /// upstream:     --1--2--3--|
    /// contains(2):  -----true|      (upstream cancelled at the match)
    /// ```
    ///
    /// It publishes `false` if the upstream finishes without the element.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// The kind of values published by this publisher.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that emits a Boolean value when it receives a specified element.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let output = self.output
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(containing: { .success($0 == output) }), downstream: subscriber, name: "Contains",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// predicate closure.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether the publisher should consider an element as a
        /// match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that emits a Boolean value upon receiving an element that
        /// satisfies the predicate closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(containing: { .success(predicate($0)) }), downstream: subscriber,
                    name: "ContainsWhere", convertFailure: sameFailure))
        }
    }

    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// throwing predicate closure.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Bool
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit a
        /// true element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that emits a Boolean value upon receiving an element that
        /// satisfies the throwing predicate closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, any Error>, Upstream.Failure, S>(
                    SearchReducer(containing: { input in Result { try predicate(input) } }), downstream: subscriber,
                    name: "TryContainsWhere", convertFailure: anyFailure))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    ///
    /// ```swift
    /// [1, 2, 3].publisher.contains(2).sink { print($0) }   // true
    /// ```
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate
    /// closure.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes a Boolean value upon receiving an element that satisfies the throwing
    /// predicate closure.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
