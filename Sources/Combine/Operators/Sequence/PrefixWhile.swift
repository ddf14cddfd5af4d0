// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes on upstream elements as long as each one passes a test, and
    /// finishes at the first that fails it.
    ///
    /// ```
    /// upstream:                 --1--2--5--1--|
    /// prefix(while: { $0 < 3 }): --1--2--|
    /// ```
    ///
    /// The first element that fails the predicate cancels the upstream and finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test: `true` passes the element on, the first `false` ends the stream.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements while the predicate holds.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, Failure>, Failure, S>(
                    WhileStepper(mode: .prefix) { .success(predicate($0)) }, downstream: subscriber,
                    name: "PrefixWhile", edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that passes on upstream elements as long as each one passes a test that can
    /// throw; it finishes at the first that fails it, and a thrown error becomes the failure.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test: `true` passes the element on, the first `false` ends the stream, and a
        /// thrown error fails it.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements while the error-throwing predicate
        /// holds.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<WhileStepper<Output, any Error>, Upstream.Failure, S>(
                    WhileStepper(mode: .prefix) { input in Result { try predicate(input) } }, downstream: subscriber,
                    name: "TryPrefixWhile", edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Passes on the upstream's elements for as long as `predicate` returns `true`, and
    /// finishes at the first one it rejects.
    ///
    /// ![A marble diagram of prefix(while:), drawn from a run of it](marble-prefix-while)
    ///
    /// `predicate` is called on each element, and the element is republished while it returns
    /// `true`. The first element for which it returns `false` is not published: the upstream
    /// is cancelled and the subscriber receives `.finished`. An upstream that completes earlier
    /// has its completion passed on. The subscriber's requests go straight upstream;
    /// requesting `.none` traps, and so does an upstream that sends anything before its
    /// subscription.
    ///
    /// ```swift
    /// let cancellable = [1, 3, 8, 2, 9].publisher
    ///     .prefix(while: { $0 < 5 })
    ///     .sink { print($0) }
    /// // Prints: 1, 3
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns `true` to
    ///   republish it or `false` to finish.
    /// - Returns: A `Publishers.PrefixWhile` publisher that republishes the elements before the
    ///   first one that fails `predicate`.
    public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }

    /// Passes on the upstream's elements for as long as a closure that can throw returns
    /// `true`, and finishes at the first one it rejects.
    ///
    /// ![A marble diagram of tryPrefix(while:), drawn from a run of it](marble-tryPrefix)
    ///
    /// It works as `prefix(while:)` does, except that when `predicate` throws, the upstream is
    /// cancelled and the error is sent as the failure. An upstream failure is passed on as
    /// `any Error`.
    ///
    /// ```swift
    /// enum ReadingError: Error { case negative }
    ///
    /// let cancellable = [1, 3, -1, 8].publisher
    ///     .tryPrefix(while: { value in
    ///         guard value >= 0 else { throw ReadingError.negative }
    ///         return value < 5
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: 1, 3, Failed: negative
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns `true` to
    ///   republish it or `false` to finish, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryPrefixWhile` publisher that republishes the elements before
    ///   the first one that fails `predicate`, or fails with the error it threw.
    public func tryPrefix(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryPrefixWhile<Self> {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
