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
            MergeSubscription(downstream: subscriber, count: publishers.count, name: "MergeMany")
                .subscribe(to: publishers)
        }

        /// Adds one more publisher to merge.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same
    /// type, delivering an interleaved sequence of elements.
    public func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}
