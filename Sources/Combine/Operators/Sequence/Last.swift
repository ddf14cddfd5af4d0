// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that holds on to the upstream's latest element and sends it once the upstream
    /// finishes.
    ///
    /// ```
    /// upstream: --a--b--c--|
    /// last():   -----------c|
    /// ```
    public struct Last<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// Creates a publisher that publishes the last element of the stream.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, Failure>, Failure, S>(
                    SearchReducer(findingFirst: false) { _ in .success(true) }, downstream: subscriber, name: "Last",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that holds on to the latest upstream element that passed a test and sends it
    /// once the upstream finishes.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test; of the elements for which it returns `true`, the latest is the one sent.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes the last element that satisfies the predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, Failure>, Failure, S>(
                    SearchReducer(findingFirst: false) { .success(predicate($0)) }, downstream: subscriber,
                    name: "LastWhere", convertFailure: sameFailure))
        }
    }

    /// A publisher that holds on to the latest upstream element that passed a test that can
    /// throw and sends it once the upstream finishes; a thrown error becomes the failure.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test; of the elements for which it returns `true`, the latest is the one sent,
        /// and an error it throws fails the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes the last element that satisfies the
        /// error-throwing predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, any Error>, Upstream.Failure, S>(
                    SearchReducer(findingFirst: false) { input in Result { try predicate(input) } },
                    downstream: subscriber, name: "TryLastWhere", convertFailure: anyFailure))
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Sends the upstream's final element when the upstream finishes.
    ///
    /// ![A marble diagram of last(), drawn from a run of it](marble-last)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and keeps
    /// only the latest element. When the upstream finishes, that element is published,
    /// followed by `.finished`, once the subscriber has requested a value; an empty upstream
    /// finishes without one. An upstream failure is passed on, and the kept element dropped.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .last()
    ///     .sink { print($0) }
    /// // Prints: c
    /// ```
    ///
    /// - Returns: A `Publishers.Last` publisher that publishes at most one element.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }

    /// Sends the latest upstream element for which `predicate` returned `true` when the
    /// upstream finishes.
    ///
    /// ![A marble diagram of last(where:), drawn from a run of it](marble-last-where)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed, calls
    /// `predicate` on every element and keeps the latest that passed. When the upstream
    /// finishes, that element is published, followed by `.finished`, once the subscriber has
    /// requested a value; with no match it finishes without one. An upstream failure is passed
    /// on, and the kept element dropped.
    ///
    /// ```swift
    /// let cancellable = [3, 8, 12, 5].publisher
    ///     .last(where: { $0 > 7 })
    ///     .sink { print($0) }
    /// // Prints: 12
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it may be
    ///   published.
    /// - Returns: A `Publishers.LastWhere` publisher that publishes at most one element.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// Sends the latest upstream element for which a closure that can throw returned `true`
    /// when the upstream finishes.
    ///
    /// ![A marble diagram of tryLast(where:), drawn from a run of it](marble-tryLast)
    ///
    /// It works as `last(where:)` does, except that when `predicate` throws, the upstream is
    /// cancelled and the error is sent as the failure, with no element. An upstream failure is
    /// passed on as `any Error`.
    ///
    /// ```swift
    /// enum ReadingError: Error { case negative }
    ///
    /// let cancellable = [12, 3, -1].publisher
    ///     .tryLast(where: { value in
    ///         guard value >= 0 else { throw ReadingError.negative }
    ///         return value > 10
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: negative
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it may be
    ///   published, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryLastWhere` publisher that publishes at most one element, or
    ///   fails with the error the predicate threw.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
