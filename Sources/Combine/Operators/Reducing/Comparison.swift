// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that keeps the greatest element under an ordering closure and sends it once
    /// the upstream finishes: the publisher of `max` and `min`.
    ///
    /// ```
    /// upstream: --3--9--1--|
    /// max():    -----------9|
    /// min():    -----------1|
    /// ```
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The ordering: given the element kept so far and a new one, it returns `true` when the
        /// new one should replace it.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that sends the greatest upstream element under
        /// `areInIncreasingOrder` when the upstream finishes.
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

    /// A publisher that keeps the greatest element under an ordering closure that can throw and
    /// sends it once the upstream finishes; a thrown error cancels the upstream and becomes the
    /// failure. It is the publisher of `tryMax(by:)` and `tryMin(by:)`.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The ordering: given the element kept so far and a new one, it returns `true` when the
        /// new one should replace it, or throws to fail the stream.
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
    /// Publishes the smallest element from the upstream publisher once it finishes.
    ///
    /// ![A marble diagram of min(), drawn from a run of it](marble-min)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and compares
    /// the elements with `<`. When the upstream finishes, it publishes the smallest (the first
    /// of equal ones), followed by `.finished`, once the subscriber has requested a value. An
    /// empty upstream finishes without a value; an upstream failure is passed on without one.
    ///
    /// ```swift
    /// let cancellable = [3, 9, 1, 4].publisher
    ///     .min()
    ///     .sink { print($0) }
    /// // Prints: 1
    /// ```
    ///
    /// - Returns: A `Publishers.Comparison` publisher that publishes the minimum element.
    public func min() -> Publishers.Comparison<Self> {
        min(by: <)
    }

    /// Publishes the largest element from the upstream publisher once it finishes.
    ///
    /// ![A marble diagram of max(), drawn from a run of it](marble-max)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and compares
    /// the elements with `<`. When the upstream finishes, it publishes the largest (the first
    /// of equal ones), followed by `.finished`, once the subscriber has requested a value. An
    /// empty upstream finishes without a value; an upstream failure is passed on without one.
    ///
    /// ```swift
    /// let cancellable = [3, 9, 1, 4].publisher
    ///     .max()
    ///     .sink { print($0) }
    /// // Prints: 9
    /// ```
    ///
    /// - Returns: A `Publishers.Comparison` publisher that publishes the maximum element.
    public func max() -> Publishers.Comparison<Self> {
        max(by: <)
    }
}

extension Publisher {
    /// Publishes the smallest element from the upstream publisher once it finishes, ordering
    /// the elements with the given closure.
    ///
    /// ![A marble diagram of min(by:), drawn from a run of it](marble-min-by)
    ///
    /// Use it for elements that are not `Comparable`, or to compare by one property. An
    /// element replaces the minimum so far only when `areInIncreasingOrder(element, minimum)`
    /// returns `true`, so of equal minimums the first is published. As with `min()`, the
    /// upstream is asked for everything, the result waits for the upstream to finish and for a
    /// request, an empty upstream finishes without a value and a failure is passed on.
    ///
    /// ```swift
    /// let cancellable = ["pear", "fig", "banana", "kiwi"].publisher
    ///     .min(by: { $0.count < $1.count })
    ///     .sink { print($0) }
    /// // Prints: fig
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second.
    /// - Returns: A `Publishers.Comparison` publisher that publishes the minimum element.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the smallest element from the upstream publisher once it finishes, ordering
    /// the elements with a closure that can throw.
    ///
    /// ![A marble diagram of tryMin(by:), drawn from a run of it](marble-tryMin)
    ///
    /// It works as `min(by:)` does, except that when `areInIncreasingOrder` throws, the
    /// upstream is cancelled and the error is sent as the failure, with no value. An upstream
    /// failure is passed on as `any Error`.
    ///
    /// ```swift
    /// enum OrderError: Error { case notANumber }
    ///
    /// let cancellable = [3.5, 1.0, Double.nan].publisher
    ///     .tryMin(by: { lhs, rhs in
    ///         guard !lhs.isNaN, !rhs.isNaN else { throw OrderError.notANumber }
    ///         return lhs < rhs
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: notANumber
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryComparison` publisher that publishes the minimum element, or
    ///   fails with the error the closure threw.
    public func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the largest element from the upstream publisher once it finishes, ordering
    /// the elements with the given closure.
    ///
    /// ![A marble diagram of max(by:), drawn from a run of it](marble-max-by)
    ///
    /// Use it for elements that are not `Comparable`, or to compare by one property. An
    /// element replaces the maximum so far only when `areInIncreasingOrder(maximum, element)`
    /// returns `true`, so of equal maximums the first is published. As with `max()`, the
    /// upstream is asked for everything, the result waits for the upstream to finish and for a
    /// request, an empty upstream finishes without a value and a failure is passed on.
    ///
    /// ```swift
    /// let cancellable = ["pear", "fig", "banana", "kiwi"].publisher
    ///     .max(by: { $0.count < $1.count })
    ///     .sink { print($0) }
    /// // Prints: banana
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second.
    /// - Returns: A `Publishers.Comparison` publisher that publishes the maximum element.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// Publishes the largest element from the upstream publisher once it finishes, ordering
    /// the elements with a closure that can throw.
    ///
    /// ![A marble diagram of tryMax(by:), drawn from a run of it](marble-tryMax)
    ///
    /// It works as `max(by:)` does, except that when `areInIncreasingOrder` throws, the
    /// upstream is cancelled and the error is sent as the failure, with no value. An upstream
    /// failure is passed on as `any Error`.
    ///
    /// ```swift
    /// enum ScoreError: Error { case missing }
    ///
    /// let scores: [Int?] = [4, 9, nil, 2]
    /// let cancellable = scores.publisher
    ///     .tryMax(by: { lhs, rhs in
    ///         guard let lhs, let rhs else { throw ScoreError.missing }
    ///         return lhs < rhs
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0 as Any) })
    /// // Prints: Failed: missing
    /// ```
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryComparison` publisher that publishes the maximum element, or
    ///   fails with the error the closure threw.
    public func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
