// `Merge` … `Merge8` and `MergeMany` are Apple's public types; each is a thin front over
// the one implementation, `MergeSubscription`.
extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers of the same type.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher created by applying the merge function to an arbitrary number
        /// of upstream publishers.
        public init(_ upstream: Upstream...) {
            self.publishers = upstream
        }

        /// Creates a publisher created by applying the merge function to a sequence of
        /// upstream publishers.
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
    /// Combines elements from this publisher with those from another publisher of the same
    /// type, delivering an interleaved sequence of elements.
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
