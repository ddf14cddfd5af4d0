// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that sends the upstream's first element, cancels the upstream and finishes.
    ///
    /// ```
    /// upstream: --a--b--c--|
    /// first():  --a|          (upstream cancelled)
    /// ```
    public struct First<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// Creates a publisher that sends only the upstream's first element and then finishes.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, Failure>, Failure, S>(
                    SearchReducer(findingFirst: true) { _ in .success(true) }, downstream: subscriber, name: "First",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that sends the first upstream element that passes a test, cancels the
    /// upstream and finishes.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test; the first element for which it returns `true` is the one sent.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that only publishes the first element of a stream to satisfy
        /// a predicate closure.
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
                    SearchReducer(findingFirst: true) { .success(predicate($0)) }, downstream: subscriber,
                    // Apple's first(where:) subscription describes itself as "TryFirst".
                    name: "TryFirst", convertFailure: sameFailure))
        }
    }

    /// A publisher that sends the first upstream element that passes a test that can throw; a
    /// thrown error cancels the upstream and becomes the failure.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test; the first element for which it returns `true` is the one sent, and an
        /// error it throws fails the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that only publishes the first element of a stream to satisfy
        /// a throwing predicate closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Output, Output, any Error>, Upstream.Failure, S>(
                    SearchReducer(findingFirst: true) { input in Result { try predicate(input) } },
                    downstream: subscriber, name: "TryFirstWhere", convertFailure: anyFailure))
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Sends the upstream's first element and finishes, cancelling the upstream.
    ///
    /// ![A marble diagram of first(), drawn from a run of it](marble-first)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed. The first
    /// element cancels the upstream and is published, followed by `.finished`, once the
    /// subscriber has requested a value. An upstream that finishes without an element makes
    /// it finish without one; an upstream failure before the first element is passed on.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .first()
    ///     .sink { print($0) }
    /// // Prints: a
    /// ```
    ///
    /// - Returns: A `Publishers.First` publisher that publishes at most one element.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Sends the first upstream element for which `predicate` returns `true`, then finishes and
    /// cancels the upstream.
    ///
    /// ![A marble diagram of first(where:), drawn from a run of it](marble-first-where)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and discards
    /// the elements that fail the test. The first that passes cancels the upstream and is
    /// published, followed by `.finished`, once the subscriber has requested a value. If the
    /// upstream finishes with no match, the publisher finishes without a value; an upstream
    /// failure before a match is passed on.
    ///
    /// ```swift
    /// let cancellable = [3, 8, 12, 5].publisher
    ///     .first(where: { $0 > 7 })
    ///     .sink { print($0) }
    /// // Prints: 8
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it is the
    ///   one to publish.
    /// - Returns: A `Publishers.FirstWhere` publisher that publishes at most one element.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// Sends the first upstream element for which a closure that can throw returns `true`, then
    /// finishes and cancels the upstream.
    ///
    /// ![A marble diagram of tryFirst(where:), drawn from a run of it](marble-tryFirst)
    ///
    /// It works as `first(where:)` does, except that when `predicate` throws, the upstream is
    /// cancelled and the error is sent as the failure. An upstream failure is passed on as
    /// `any Error`.
    ///
    /// ```swift
    /// enum ReadingError: Error { case negative }
    ///
    /// let cancellable = [3, -1, 12].publisher
    ///     .tryFirst(where: { value in
    ///         guard value >= 0 else { throw ReadingError.negative }
    ///         return value > 10
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: negative
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it is the
    ///   one to publish, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryFirstWhere` publisher that publishes at most one element, or
    ///   fails with the error the predicate threw.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}
