extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item: the publisher of `max` and `min`.
    ///
    /// ```
    /// upstream: --3--9--1--|
    /// max():    -----------9|
    /// min():    -----------1|
    /// ```
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing
        /// order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that republishes items from another publisher only if each new
        /// item is in increasing order from the previously-published item.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            let order = areInIncreasingOrder
            upstream.subscribe(
                ReducingSubscription<ComparisonReducer<Output, Failure>, Failure, S>(
                    ComparisonReducer { .success(order($0, $1)) }, downstream: subscriber, name: "Comparison",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item, and fails if the ordering logic
    /// throws an error.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing
        /// order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher with an error-throwing ordering.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let order = areInIncreasingOrder
            upstream.subscribe(
                ReducingSubscription<ComparisonReducer<Output, any Error>, Upstream.Failure, S>(
                    ComparisonReducer { current, next in Result { try order(current, next) } },
                    downstream: subscriber, name: "TryComparison", convertFailure: anyFailure))
        }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    ///
    /// ```swift
    /// [3, 9, 1].publisher.max().sink { print($0) }   // 9
    /// ```
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// ordering closure, after it finishes. Of equal minimums, the first is published.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// ordering closure, after it finishes. Of equal maximums, the first is published.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
