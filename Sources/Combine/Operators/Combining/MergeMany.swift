// SPDX-License-Identifier: Apache-2.0
// `Merge` … `Merge8` and `MergeMany` are Apple's public types; each is a thin front over
// the one implementation, `MergeSubscription`.
extension Publishers {
    /// A publisher that forwards the values of any number of upstreams of one publisher type as
    /// one stream.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' output type.
        public typealias Output = Upstream.Output
        /// The upstreams' failure type; the first failure ends this publisher.
        public typealias Failure = Upstream.Failure

        /// The upstreams, in the order they are subscribed to.
        public let publishers: [Upstream]

        /// Makes a publisher that merges the publishers passed as arguments, subscribing to them
        /// in argument order.
        public init(_ upstream: Upstream...) {
            self.publishers = upstream
        }

        /// Makes a publisher that merges the publishers in `upstream`, subscribing to them in the
        /// sequence's order.
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            self.publishers = Array(upstream)
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            MergeSubscription(downstream: subscriber, count: publishers.count, name: "Merge")
                .subscribe(to: publishers)
        }

        /// Adds one more publisher to merge.
        ///
        /// - Parameter other: Another publisher of the same type to merge.
        /// - Returns: A ``Publishers/MergeMany`` publisher over this publisher's upstreams
        ///   followed by `other`.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the values of this publisher and of `other`, a publisher of the same type, as
    /// one stream, each value as it comes.
    ///
    /// ![A marble diagram of merge, drawn from a run of it](marble-merge)
    ///
    /// Values from either publisher are published in the order they arrive. This publisher
    /// is subscribed first, then `other`.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .merge(with: [3, 4].publisher)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// Demand is paced as Apple's merge paces it: one value at a time from each publisher, at
    /// most one kept per publisher without demand. The result finishes when both publishers
    /// have finished, and fails as soon as either fails, cancelling both. Call
    /// `merge(with:)` on the result to add more publishers of the same type.
    ///
    /// - Parameter other: Another publisher of the same type whose values are interleaved
    ///   with this one's.
    /// - Returns: A ``Publishers/MergeMany`` publisher that publishes the values of both
    ///   publishers.
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}
