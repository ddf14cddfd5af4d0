// SPDX-License-Identifier: Apache-2.0
// `Merge3` … `Merge8` are Apple's public types; like `Merge`, each is a thin front over the
// one implementation, `MergeSubscription`. Their `merge(with:)` overloads only build the
// next wider type.

extension Publishers {
    /// A publisher that forwards the values of three upstreams of the same output and failure
    /// types as one stream.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Creates a publisher that merges the elements of three upstream publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            (self.a, self.b, self.c) = (a, b, c)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where C.Failure == S.Failure, C.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 3, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
        }
    }

    /// A publisher that forwards the values of four upstreams of the same output and failure
    /// types as one stream.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output
    {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Upstream publisher number 4.
        public let d: D

        /// Creates a publisher that merges the elements of four upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            (self.a, self.b, self.c, self.d) = (a, b, c, d)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where D.Failure == S.Failure, D.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 4, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
            merge.attach(d, at: 3)
        }
    }

    /// A publisher that forwards the values of five upstreams of the same output and failure
    /// types as one stream.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output
    {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Upstream publisher number 4.
        public let d: D

        /// Upstream publisher number 5.
        public let e: E

        /// Creates a publisher that merges the elements of five upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            (self.a, self.b, self.c, self.d, self.e) = (a, b, c, d, e)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where E.Failure == S.Failure, E.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 5, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
            merge.attach(d, at: 3)
            merge.attach(e, at: 4)
        }
    }

    /// A publisher that forwards the values of six upstreams of the same output and failure
    /// types as one stream.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output
    {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Upstream publisher number 4.
        public let d: D

        /// Upstream publisher number 5.
        public let e: E

        /// Upstream publisher number 6.
        public let f: F

        /// Creates a publisher that merges the elements of six upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where F.Failure == S.Failure, F.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 6, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
            merge.attach(d, at: 3)
            merge.attach(e, at: 4)
            merge.attach(f, at: 5)
        }
    }

    /// A publisher that forwards the values of seven upstreams of the same output and failure
    /// types as one stream.
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
    {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Upstream publisher number 4.
        public let d: D

        /// Upstream publisher number 5.
        public let e: E

        /// Upstream publisher number 6.
        public let f: F

        /// Upstream publisher number 7.
        public let g: G

        /// Creates a publisher that merges the elements of seven upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            (self.a, self.b, self.c, self.d, self.e, self.f, self.g) = (a, b, c, d, e, f, g)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where G.Failure == S.Failure, G.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 7, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
            merge.attach(d, at: 3)
            merge.attach(e, at: 4)
            merge.attach(f, at: 5)
            merge.attach(g, at: 6)
        }
    }

    /// A publisher that forwards the values of eight upstreams of the same output and failure
    /// types as one stream.
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Failure == B.Failure, A.Output == B.Output, B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
    {
        /// The output type all upstreams share.
        public typealias Output = A.Output
        /// The failure type all upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// Upstream publisher number 1.
        public let a: A

        /// Upstream publisher number 2.
        public let b: B

        /// Upstream publisher number 3.
        public let c: C

        /// Upstream publisher number 4.
        public let d: D

        /// Upstream publisher number 5.
        public let e: E

        /// Upstream publisher number 6.
        public let f: F

        /// Upstream publisher number 7.
        public let g: G

        /// Upstream publisher number 8.
        public let h: H

        /// Creates a publisher that merges the elements of eight upstream publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h) = (a, b, c, d, e, f, g, h)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where H.Failure == S.Failure, H.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 8, name: "Merge")
            merge.start()
            merge.attach(a, at: 0)
            merge.attach(b, at: 1)
            merge.attach(c, at: 2)
            merge.attach(d, at: 3)
            merge.attach(e, at: 4)
            merge.attach(f, at: 5)
            merge.attach(g, at: 6)
            merge.attach(h, at: 7)
        }
    }

}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publishers.Merge {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge3`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge3<A, B, Z>
    where B.Failure == Z.Failure, B.Output == Z.Output {
        Publishers.Merge3(a, b, z)
    }

    /// Adds 2 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    /// - Returns: A ``Publishers/Merge4`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge4<A, B, Z, Y>
    where B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge4(a, b, z, y)
    }

    /// Adds 3 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    /// - Returns: A ``Publishers/Merge5`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
        -> Publishers.Merge5<A, B, Z, Y, X>
    where
        B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output
    {
        Publishers.Merge5(a, b, z, y, x)
    }

    /// Adds 4 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    /// - Returns: A ``Publishers/Merge6`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
        -> Publishers.Merge6<A, B, Z, Y, X, W>
    where
        B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output
    {
        Publishers.Merge6(a, b, z, y, x, w)
    }

    /// Adds 5 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    ///   - v: The fifth publisher to add.
    /// - Returns: A ``Publishers/Merge7`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
    where
        B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output,
        W.Failure == V.Failure, W.Output == V.Output
    {
        Publishers.Merge7(a, b, z, y, x, w, v)
    }

    /// Adds 6 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    ///   - v: The fifth publisher to add.
    ///   - u: The sixth publisher to add.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
    ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
    where
        B.Failure == Z.Failure, B.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output,
        W.Failure == V.Failure, W.Output == V.Output, V.Failure == U.Failure, V.Output == U.Output
    {
        Publishers.Merge8(a, b, z, y, x, w, v, u)
    }
}

extension Publishers.Merge3 {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge4`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge4<A, B, C, Z>
    where C.Failure == Z.Failure, C.Output == Z.Output {
        Publishers.Merge4(a, b, c, z)
    }

    /// Adds 2 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    /// - Returns: A ``Publishers/Merge5`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge5<A, B, C, Z, Y>
    where C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge5(a, b, c, z, y)
    }

    /// Adds 3 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    /// - Returns: A ``Publishers/Merge6`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
        -> Publishers.Merge6<A, B, C, Z, Y, X>
    where
        C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output
    {
        Publishers.Merge6(a, b, c, z, y, x)
    }

    /// Adds 4 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    /// - Returns: A ``Publishers/Merge7`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
        -> Publishers.Merge7<A, B, C, Z, Y, X, W>
    where
        C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output
    {
        Publishers.Merge7(a, b, c, z, y, x, w)
    }

    /// Adds 5 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    ///   - v: The fifth publisher to add.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
        with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
    ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
    where
        C.Failure == Z.Failure, C.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output,
        W.Failure == V.Failure, W.Output == V.Output
    {
        Publishers.Merge8(a, b, c, z, y, x, w, v)
    }
}

extension Publishers.Merge4 {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge5`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge5<A, B, C, D, Z>
    where D.Failure == Z.Failure, D.Output == Z.Output {
        Publishers.Merge5(a, b, c, d, z)
    }

    /// Adds 2 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    /// - Returns: A ``Publishers/Merge6`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge6<A, B, C, D, Z, Y>
    where D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge6(a, b, c, d, z, y)
    }

    /// Adds 3 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    /// - Returns: A ``Publishers/Merge7`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
        -> Publishers.Merge7<A, B, C, D, Z, Y, X>
    where
        D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output
    {
        Publishers.Merge7(a, b, c, d, z, y, x)
    }

    /// Adds 4 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    ///   - w: The fourth publisher to add.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(with z: Z, _ y: Y, _ x: X, _ w: W)
        -> Publishers.Merge8<A, B, C, D, Z, Y, X, W>
    where
        D.Failure == Z.Failure, D.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output, X.Failure == W.Failure, X.Output == W.Output
    {
        Publishers.Merge8(a, b, c, d, z, y, x, w)
    }
}

extension Publishers.Merge5 {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge6`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge6<A, B, C, D, E, Z>
    where E.Failure == Z.Failure, E.Output == Z.Output {
        Publishers.Merge6(a, b, c, d, e, z)
    }

    /// Adds 2 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    /// - Returns: A ``Publishers/Merge7`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge7<A, B, C, D, E, Z, Y>
    where E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge7(a, b, c, d, e, z, y)
    }

    /// Adds 3 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    ///   - x: The third publisher to add.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher, X: Publisher>(with z: Z, _ y: Y, _ x: X)
        -> Publishers.Merge8<A, B, C, D, E, Z, Y, X>
    where
        E.Failure == Z.Failure, E.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output,
        Y.Failure == X.Failure, Y.Output == X.Output
    {
        Publishers.Merge8(a, b, c, d, e, z, y, x)
    }
}

extension Publishers.Merge6 {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge7`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge7<A, B, C, D, E, F, Z>
    where F.Failure == Z.Failure, F.Output == Z.Output {
        Publishers.Merge7(a, b, c, d, e, f, z)
    }

    /// Adds 2 more publishers to merge.
    ///
    /// - Parameters:
    ///   - z: The first publisher to add.
    ///   - y: The second publisher to add.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added ones.
    public func merge<Z: Publisher, Y: Publisher>(with z: Z, _ y: Y) -> Publishers.Merge8<A, B, C, D, E, F, Z, Y>
    where F.Failure == Z.Failure, F.Output == Z.Output, Z.Failure == Y.Failure, Z.Output == Y.Output {
        Publishers.Merge8(a, b, c, d, e, f, z, y)
    }
}

extension Publishers.Merge7 {
    /// Adds 1 more publisher to merge.
    ///
    /// - Parameter z: Another publisher to merge.
    /// - Returns: A ``Publishers/Merge8`` publisher over this publisher's upstreams and the
    ///   added one.
    public func merge<Z: Publisher>(with z: Z) -> Publishers.Merge8<A, B, C, D, E, F, G, Z>
    where G.Failure == Z.Failure, G.Output == Z.Output {
        Publishers.Merge8(a, b, c, d, e, f, g, z)
    }
}

extension Publisher {
    /// Publishes the values of this publisher and of two others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the three publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    /// - Returns: A ``Publishers/Merge3`` publisher that publishes the values of
    ///   all three publishers.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Publishes the values of this publisher and of three others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the four publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher, [4].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    ///   - d: The fourth publisher to merge.
    /// - Returns: A ``Publishers/Merge4`` publisher that publishes the values of
    ///   all four publishers.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
        -> Publishers.Merge4<Self, B, C, D>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output
    {
        Publishers.Merge4(self, b, c, d)
    }

    /// Publishes the values of this publisher and of four others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the five publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    ///   - d: The fourth publisher to merge.
    ///   - e: The fifth publisher to merge.
    /// - Returns: A ``Publishers/Merge5`` publisher that publishes the values of
    ///   all five publishers.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E)
        -> Publishers.Merge5<Self, B, C, D, E>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Publishes the values of this publisher and of five others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the six publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    ///   - d: The fourth publisher to merge.
    ///   - e: The fifth publisher to merge.
    ///   - f: The sixth publisher to merge.
    /// - Returns: A ``Publishers/Merge6`` publisher that publishes the values of
    ///   all six publishers.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure, E.Output == F.Output
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Publishes the values of this publisher and of six others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the seven publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher, [7].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    ///   - d: The fourth publisher to merge.
    ///   - e: The fifth publisher to merge.
    ///   - f: The sixth publisher to merge.
    ///   - g: The seventh publisher to merge.
    /// - Returns: A ``Publishers/Merge7`` publisher that publishes the values of
    ///   all seven publishers.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure,
        E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Publishes the values of this publisher and of seven others as one stream, each value as it
    /// comes.
    ///
    /// Values from any of the eight publishers are published in the order they arrive; the
    /// publishers are subscribed in argument order, this one first. All of them must have
    /// the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let cancellable = [1].publisher
    ///     .merge(with: [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher, [7].publisher, [8].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4, 5, 6, 7, 8
    /// ```
    ///
    /// Demand is paced as `merge(with:)` paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when all publishers have
    /// finished, and fails as soon as any of them fails, cancelling them all.
    ///
    /// - Parameters:
    ///   - b: The second publisher to merge.
    ///   - c: The third publisher to merge.
    ///   - d: The fourth publisher to merge.
    ///   - e: The fifth publisher to merge.
    ///   - f: The sixth publisher to merge.
    ///   - g: The seventh publisher to merge.
    ///   - h: The eighth publisher to merge.
    /// - Returns: A ``Publishers/Merge8`` publisher that publishes the values of
    ///   all eight publishers.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        Failure == B.Failure, Output == B.Output, B.Failure == C.Failure, B.Output == C.Output, C.Failure == D.Failure,
        C.Output == D.Output, D.Failure == E.Failure, D.Output == E.Output, E.Failure == F.Failure,
        E.Output == F.Output, F.Failure == G.Failure, F.Output == G.Output, G.Failure == H.Failure, G.Output == H.Output
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
