// SPDX-License-Identifier: Apache-2.0
// `Merge` … `Merge8` and `MergeMany` are Apple's public types; each is a thin front over
// the one implementation, `MergeSubscription`.
extension Publishers {
    /// A publisher that forwards the values of two upstreams of the same output and failure types
    /// as one stream.
    ///
    /// ```
    /// a:           --1-----3--|
    /// b:           -----2-----4--|
    /// merge(with:) --1--2--3--4--|
    /// ```
    ///
    /// It finishes when both upstreams have finished, and fails as soon as either fails.
    public struct Merge<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure, A.Output == B.Output {
        /// The output type both upstreams share.
        public typealias Output = A.Output
        /// The failure type both upstreams share; the first failure ends this publisher.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// Makes a publisher that merges `a` and `b`, subscribing to them in that order.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where B.Failure == S.Failure, B.Output == S.Input {
            let merge = MergeSubscription(downstream: subscriber, count: 2, name: "Merge")
            merge.start()
            merge.subscribeUpstream(a, at: 0)
            merge.subscribeUpstream(b, at: 1)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publisher {
    /// Publishes the values of this publisher and of `other` as one stream, each value as it
    /// comes.
    ///
    /// ![A marble diagram of merge(with:), drawn from a run of it](marble-merge)
    ///
    /// Values from either publisher are published in the order they arrive, for instance
    /// `taps.merge(with: keyPresses)` to handle two kinds of input in one place. Both
    /// publishers must have the same `Output` and `Failure` types.
    ///
    /// ```swift
    /// let typed = PassthroughSubject<String, Never>()
    /// let pasted = CurrentValueSubject<String, Never>("draft")
    /// let cancellable = typed.merge(with: pasted).sink { print($0) }
    /// // Prints: draft (pasted's current value)
    /// typed.send("a")    // Prints: a
    /// pasted.send("b")   // Prints: b
    /// ```
    ///
    /// Demand, as Apple's: each publisher is asked for one value at a time (`.unlimited` once
    /// the subscriber asks for that), and the subscriber's finite requests stay here. A value
    /// that finds no outstanding demand is kept, one per publisher (a newer one replaces it),
    /// until the subscriber asks again; kept values then go out in publisher order. The result
    /// finishes when both publishers have finished (after the kept values), and fails as soon
    /// as either fails, cancelling both.
    ///
    /// For an `other` of the same type as this publisher, the `merge(with:)` overload that
    /// returns ``Publishers/MergeMany`` is chosen instead; it behaves the same.
    ///
    /// - Parameter other: Another publisher whose values are interleaved with this one's.
    /// - Returns: A ``Publishers/Merge`` publisher that publishes the values of both
    ///   publishers.
    public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Merge(self, other)
    }
}
