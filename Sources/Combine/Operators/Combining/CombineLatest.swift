// SPDX-License-Identifier: Apache-2.0
// `CombineLatest`, `CombineLatest3` and `CombineLatest4` are Apple's public types; each is a thin front over the one
// variadic implementation, `CombiningSubscription` in `.combineLatest` mode.

extension Publishers {
    /// A publisher that pairs the most recent value of one upstream with the most recent value
    /// of another.
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
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
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
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
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
            subscribeCombining(.combineLatest, "CombineLatest", subscriber, a, b, c)
        }
    }

    /// A publisher created by combining the latest values of four upstream publishers.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// A tuple of the latest value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
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
            subscribeCombining(.combineLatest, "CombineLatest", subscriber, a, b, c, d)
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Pairs this publisher's latest value with the latest value of `other`, publishing a new
    /// tuple each time either of them publishes.
    ///
    /// Nothing is published until both publishers have published at least once; from then
    /// on, every value from either one publishes a tuple of the latest value of each. A
    /// publisher that has finished keeps contributing its last value.
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let letters = PassthroughSubject<String, Never>()
    /// let cancellable = numbers.combineLatest(letters)
    ///     .sink { print($0) }
    /// numbers.send(1)     // nothing yet: letters has not published
    /// letters.send("a")   // Prints: (1, "a")
    /// numbers.send(2)     // Prints: (2, "a")
    /// letters.send("b")   // Prints: (2, "b")
    /// ```
    ///
    /// A typical use is validating a form, as in
    /// `$password.combineLatest($passwordAgain).map { $0 == $1 }`.
    ///
    /// Each request of the subscriber is passed on to both publishers. As with Apple's, a value
    /// that arrives while the subscriber has no outstanding demand, or while it is inside its
    /// own `receive(_:)` on that thread, becomes that publisher's latest value but makes no
    /// tuple: a later request waits for the next value. The result finishes when both
    /// publishers have finished, and fails as soon as either fails, cancelling the other.
    ///
    /// - Parameter other: The publisher whose latest value goes in the second slot of each tuple.
    /// - Returns: A ``Publishers/CombineLatest`` publisher that publishes tuples of the latest
    ///   value of each publisher.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where Failure == P.Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Passes the latest values of this publisher and of `other` to `transform` each time either
    /// of them publishes, and publishes what `transform` returns.
    ///
    /// Works like `combineLatest(_:)`, then maps each tuple of latest values through
    /// `transform`: nothing is published until both publishers have published, and each
    /// later value from either one calls `transform` with the latest value of each.
    ///
    /// ```swift
    /// let width = PassthroughSubject<Int, Never>()
    /// let height = PassthroughSubject<Int, Never>()
    /// let cancellable = width.combineLatest(height) { $0 * $1 }
    ///     .sink { print($0) }
    /// width.send(2)    // nothing yet
    /// height.send(3)   // Prints: 6
    /// width.send(4)    // Prints: 12
    /// ```
    ///
    /// Demand, completion and failure are those of `combineLatest(_:)`.
    ///
    /// - Parameters:
    ///   - other: The publisher whose latest value is the second argument of `transform`.
    ///   - transform: A closure that receives the latest value of each publisher and returns
    ///     the value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/CombineLatest``, publishing the
    ///   results of `transform`.
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where Failure == P.Failure {
        Publishers.CombineLatest(self, other).map(transform)
    }

    /// Publishes a tuple of the latest values of this publisher, `publisher1` and `publisher2`
    /// each time one of the three publishes.
    ///
    /// Nothing is published until all three publishers have published at least once; from
    /// then on, every value from any of them publishes a tuple of the latest value of each.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.combineLatest(b, c).sink { print($0) }
    /// a.send(1)
    /// b.send(2)
    /// c.send(3)    // Prints: (1, 2, 3)
    /// b.send(20)   // Prints: (1, 20, 3)
    /// ```
    ///
    /// Each request of the subscriber is passed on to every publisher; a value that arrives
    /// without outstanding demand (or from inside the subscriber's `receive(_:)`) makes no
    /// tuple, as with Apple's. The result finishes when all publishers have finished, and
    /// fails as soon as any of them fails, cancelling the others.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with this one.
    ///   - publisher2: A third publisher to combine with this one.
    /// - Returns: A ``Publishers/CombineLatest3`` publisher that publishes tuples of the
    ///   latest value of each publisher.
    public func combineLatest<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.CombineLatest3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Calls `transform` with the latest values of this publisher, `publisher1` and `publisher2`
    /// each time one of the three publishes, and publishes its result.
    ///
    /// Works like `combineLatest(_:_:)`, then maps each tuple of latest values through
    /// `transform`.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.combineLatest(b, c) { $0 + $1 + $2 }.sink { print($0) }
    /// a.send(1)
    /// b.send(2)
    /// c.send(3)    // Prints: 6
    /// b.send(20)   // Prints: 24
    /// ```
    ///
    /// Demand, completion and failure are those of `combineLatest(_:_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with this one.
    ///   - publisher2: A third publisher to combine with this one.
    ///   - transform: A closure that receives the latest value of each publisher and returns
    ///     the value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/CombineLatest3``, publishing the
    ///   results of `transform`.
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
    }

    /// Publishes a tuple of the latest values of this publisher and the three others each
    /// time one of the four publishes.
    ///
    /// Nothing is published until all four publishers have published at least once; from
    /// then on, every value from any of them publishes a tuple of the latest value of each.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<String, Never>()
    /// let c = PassthroughSubject<Bool, Never>()
    /// let d = PassthroughSubject<Double, Never>()
    /// let cancellable = a.combineLatest(b, c, d).sink { print($0) }
    /// a.send(1)
    /// b.send("x")
    /// c.send(true)
    /// d.send(0.5)   // Prints: (1, "x", true, 0.5)
    /// a.send(2)     // Prints: (2, "x", true, 0.5)
    /// ```
    ///
    /// Each request of the subscriber is passed on to every publisher; a value that arrives
    /// without outstanding demand (or from inside the subscriber's `receive(_:)`) makes no
    /// tuple, as with Apple's. The result finishes when all publishers have finished, and
    /// fails as soon as any of them fails, cancelling the others.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with this one.
    ///   - publisher2: A third publisher to combine with this one.
    ///   - publisher3: A fourth publisher to combine with this one.
    /// - Returns: A ``Publishers/CombineLatest4`` publisher that publishes tuples of the
    ///   latest value of each publisher.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Calls `transform` with the latest values of this publisher and the three others each
    /// time one of the four publishes, and publishes its result.
    ///
    /// Works like `combineLatest(_:_:_:)`, then maps each tuple of latest values through
    /// `transform`.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let d = PassthroughSubject<Int, Never>()
    /// let cancellable = a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }.sink { print($0) }
    /// a.send(1)
    /// b.send(2)
    /// c.send(3)
    /// d.send(4)    // Prints: 10
    /// a.send(10)   // Prints: 19
    /// ```
    ///
    /// Demand, completion and failure are those of `combineLatest(_:_:_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with this one.
    ///   - publisher2: A third publisher to combine with this one.
    ///   - publisher3: A fourth publisher to combine with this one.
    ///   - transform: A closure that receives the latest value of each publisher and returns
    ///     the value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/CombineLatest4``, publishing the
    ///   results of `transform`.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
    }
}
