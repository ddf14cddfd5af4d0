// SPDX-License-Identifier: Apache-2.0
// `Zip`, `Zip3` and `Zip4` are Apple's public types; each is a thin front over the one
// variadic implementation, `CombiningSubscription` in `.zip` mode.

extension Publishers {
    /// A publisher that pairs the values of two upstreams by position: first with first, second
    /// with second, and so on.
    ///
    /// ```
    /// a:    --1-----2-----3--|
    /// b:    -----x-----y-----|
    /// zip:  -----(1,x)-(2,y)-|
    /// ```
    ///
    /// It pairs the n-th value of each upstream, holding early values until their partners
    /// arrive. It finishes once an upstream has finished and none of its values wait for a
    /// partner, and fails as soon as either upstream fails.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple holding one value of each upstream, all at the same position.
        public typealias Output = (A.Output, B.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// Another publisher to zip.
        public let b: B

        /// Makes a publisher that pairs the values of `a` and `b` by position.
        public init(_ a: A, _ b: B) {
            (self.a, self.b) = (a, b)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where B.Failure == S.Failure, S.Input == (A.Output, B.Output) {
            subscribeCombining(.zip, "Zip", subscriber, a, b)
        }
    }

    /// A publisher that groups the values of three upstreams by position into tuples.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// A tuple holding one value of each upstream, all at the same position.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// A third publisher to zip.
        public let c: C

        /// Makes a publisher that groups the values of `a`, `b` and `c` by position.
        public init(_ a: A, _ b: B, _ c: C) {
            (self.a, self.b, self.c) = (a, b, c)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where C.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output) {
            subscribeCombining(.zip, "Zip", subscriber, a, b, c)
        }
    }

    /// A publisher that groups the values of four upstreams by position into tuples.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// A tuple holding one value of each upstream, all at the same position.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The error type the upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// A publisher to zip.
        public let a: A

        /// A second publisher to zip.
        public let b: B

        /// A third publisher to zip.
        public let c: C

        /// A fourth publisher to zip.
        public let d: D

        /// Makes a publisher that groups the values of `a`, `b`, `c` and `d` by position.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where D.Failure == S.Failure, S.Input == (A.Output, B.Output, C.Output, D.Output) {
            subscribeCombining(.zip, "Zip", subscriber, a, b, c, d)
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Pairs each value of this publisher with the value of `other` at the same position.
    ///
    /// The first value of each publisher makes the first tuple, the second values the
    /// second, and so on: a value waits, in a queue per publisher, until the other publisher
    /// has published its partner. Values without a partner when the other side finishes are
    /// never published.
    ///
    /// ```swift
    /// let letters = PassthroughSubject<String, Never>()
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let cancellable = letters.zip(numbers).sink { print($0) }
    /// letters.send("a")
    /// letters.send("b")   // both wait for a number
    /// numbers.send(1)     // Prints: ("a", 1)
    /// numbers.send(2)     // Prints: ("b", 2)
    /// ```
    ///
    /// Each request of the subscriber is passed on to every publisher. A tuple goes out as
    /// soon as it is complete, whatever the subscriber's outstanding demand (with publishers
    /// that keep to the demand they are asked for, that never exceeds it). The result
    /// finishes once a publisher has finished and none of its values are left waiting for a
    /// partner (the others are then cancelled), and fails as soon as any publisher fails.
    ///
    /// - Parameter other: Another publisher whose values are paired with this one's.
    /// - Returns: A ``Publishers/Zip`` publisher that publishes pairs of values, one from
    ///   each publisher.
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P> where Failure == P.Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs the values of this publisher and `other` by position and publishes what
    /// `transform` makes of each pair.
    ///
    /// Works like `zip(_:)`, then maps each pair through `transform`.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .zip([10, 20, 30].publisher) { $0 + $1 }
    ///     .sink { print($0) }
    /// // Prints: 11, 22, 33
    /// ```
    ///
    /// Demand, completion and failure are those of `zip(_:)`.
    ///
    /// - Parameters:
    ///   - other: Another publisher whose values are paired with this one's.
    ///   - transform: A closure that receives one value from each publisher and returns the
    ///     value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/Zip``, publishing the results of
    ///   `transform`.
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where Failure == P.Failure {
        Publishers.Zip(self, other).map(transform)
    }

    /// Groups each value of this publisher with the values of `publisher1` and `publisher2` at
    /// the same position, publishing each group as a tuple.
    ///
    /// The n-th values of the three publishers make the n-th tuple; a value waits until the
    /// other two publishers have published their n-th value.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip(["a", "b"].publisher, [true, false].publisher)
    ///     .sink { print($0) }
    /// // Prints: (1, "a", true), (2, "b", false)
    /// ```
    ///
    /// Each request of the subscriber is passed on to every publisher. A tuple goes out as
    /// soon as it is complete, whatever the subscriber's outstanding demand (with publishers
    /// that keep to the demand they are asked for, that never exceeds it). The result
    /// finishes once a publisher has finished and none of its values are left waiting for a
    /// partner (the others are then cancelled), and fails as soon as any publisher fails.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to zip with this one.
    ///   - publisher2: A third publisher to zip with this one.
    /// - Returns: A ``Publishers/Zip3`` publisher that publishes tuples of one value from
    ///   each publisher.
    public func zip<P: Publisher, Q: Publisher>(
        _ publisher1: P, _ publisher2: Q
    ) -> Publishers.Zip3<Self, P, Q> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Groups the values of this publisher, `publisher1` and `publisher2` by position and
    /// publishes what `transform` makes of each group.
    ///
    /// Works like `zip(_:_:)`, then maps each group through `transform`.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip([10, 20].publisher, [100, 200].publisher) { $0 + $1 + $2 }
    ///     .sink { print($0) }
    /// // Prints: 111, 222
    /// ```
    ///
    /// Demand, completion and failure are those of `zip(_:_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to zip with this one.
    ///   - publisher2: A third publisher to zip with this one.
    ///   - transform: A closure that receives one value from each publisher and returns the
    ///     value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/Zip3``, publishing the results of
    ///   `transform`.
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where Failure == P.Failure, P.Failure == Q.Failure {
        Publishers.Zip3(self, publisher1, publisher2).map(transform)
    }

    /// Groups each value of this publisher with the values of the three others at the same
    /// position, publishing each group as a tuple.
    ///
    /// The n-th values of the four publishers make the n-th tuple; a value waits until the
    /// other three publishers have published their n-th value.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip(["a", "b"].publisher, [true, false].publisher, [0.5, 1.5].publisher)
    ///     .sink { print($0) }
    /// // Prints: (1, "a", true, 0.5), (2, "b", false, 1.5)
    /// ```
    ///
    /// Each request of the subscriber is passed on to every publisher. A tuple goes out as
    /// soon as it is complete, whatever the subscriber's outstanding demand (with publishers
    /// that keep to the demand they are asked for, that never exceeds it). The result
    /// finishes once a publisher has finished and none of its values are left waiting for a
    /// partner (the others are then cancelled), and fails as soon as any publisher fails.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to zip with this one.
    ///   - publisher2: A third publisher to zip with this one.
    ///   - publisher3: A fourth publisher to zip with this one.
    /// - Returns: A ``Publishers/Zip4`` publisher that publishes tuples of one value from
    ///   each publisher.
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R> where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Groups the values of this publisher and the three others by position and publishes what
    /// `transform` makes of each group.
    ///
    /// Works like `zip(_:_:_:)`, then maps each group through `transform`.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .zip([10, 20].publisher, [100, 200].publisher, [1000, 2000].publisher) { $0 + $1 + $2 + $3 }
    ///     .sink { print($0) }
    /// // Prints: 1111, 2222
    /// ```
    ///
    /// Demand, completion and failure are those of `zip(_:_:_:)`.
    ///
    /// - Parameters:
    ///   - publisher1: A second publisher to zip with this one.
    ///   - publisher2: A third publisher to zip with this one.
    ///   - publisher3: A fourth publisher to zip with this one.
    ///   - transform: A closure that receives one value from each publisher and returns the
    ///     value to publish.
    /// - Returns: A ``Publishers/Map`` over a ``Publishers/Zip4``, publishing the results of
    ///   `transform`.
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where Failure == P.Failure, P.Failure == Q.Failure, Q.Failure == R.Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
    }
}
