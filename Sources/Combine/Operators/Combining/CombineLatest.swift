// `CombineLatest`, `CombineLatest3` and `CombineLatest4` are Apple's public types; each is a thin front over the one
// variadic implementation, `CombiningSubscription` in `.combineLatest` mode.

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// ```
    /// a:              --1-----2--------|
    /// b:              -----x-----y-----|
    /// combineLatest:  -----(1,x)(2,x)(2,y)-|
    /// ```
    ///
    /// Once both upstreams have published, every value from either produces a tuple of the
    /// latest values. It finishes when both have finished, and fails as soon as either fails.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = (A.Output, B.Output)
        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// Another publisher to combine.
        public let b: B

        /// Creates a publisher that combines the latest values of two upstream publishers.
        public init(_ a: A, _ b: B) {
            (self.a, self.b) = (a, b)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
            subscribeCombining(.combineLatest, "CombineLatest", subscriber, a, b)
        }
    }

    /// A publisher created by combining the latest values of three upstream publishers.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// Creates a publisher that combines the latest values of three upstream publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            (self.a, self.b, self.c) = (a, b, c)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output) {
            subscribeCombining(.combineLatest, "CombineLatest3", subscriber, a, b, c)
        }
    }

    /// A publisher created by combining the latest values of four upstream publishers.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// A publisher to combine.
        public let a: A

        /// A second publisher to combine.
        public let b: B

        /// A third publisher to combine.
        public let c: C

        /// A fourth publisher to combine.
        public let d: D

        /// Creates a publisher that combines the latest values of four upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where D.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output, D.Output) {
            subscribeCombining(.combineLatest, "CombineLatest4", subscriber, a, b, c, d)
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output
    /// from either publisher.
    ///
    /// ```swift
    /// $password.combineLatest($passwordAgain).map { $0 == $1 }
    /// ```
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output from either publisher.
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Subscribes to two additional publishers and publishes a tuple upon receiving output from any of the publishers.
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Subscribes to two additional publishers and invokes a closure upon receiving output from any of the publishers.
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// Subscribes to three additional publishers and publishes a tuple upon receiving output
    /// from any of the publishers.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Subscribes to three additional publishers and invokes a closure upon receiving output from any of the publishers.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }
}
