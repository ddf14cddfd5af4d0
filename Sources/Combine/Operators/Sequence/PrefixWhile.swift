extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing
    /// should continue.
    ///
    /// ```
    /// upstream:                 --1--2--5--1--|
    /// prefix(while: { $0 < 3 }): --1--2--|
    /// ```
    ///
    /// The first element that fails the predicate cancels the upstream and finishes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether publishing should continue.
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

    /// A publisher that republishes elements while an error-throwing predicate closure
    /// indicates publishing should continue.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
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
    /// Republishes elements while a predicate closure indicates publishing should continue.
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

    /// Republishes elements while an error-throwing predicate closure indicates publishing
    /// should continue.
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
