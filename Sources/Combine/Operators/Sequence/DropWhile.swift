// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that discards upstream elements while a test passes, and republishes the
    /// first element that fails it together with every element after that.
    ///
    /// ```
    /// upstream:               --1--2--5--1--|
    /// drop(while: { $0 < 3 }): --------5--1--|
    /// ```
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test: `true` discards the element, the first `false` ends the discarding.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that omits elements until the predicate returns false.
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
                    WhileStepper(mode: .drop) { .success(predicate($0)) }, downstream: subscriber, name: "DropWhile",
                    edges: .lenient(values: .ignore, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: true),
                    reflection: .empty,
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that discards upstream elements while a test that can throw passes, then
    /// republishes the rest; a thrown error becomes the failure.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test: `true` discards the element, the first `false` ends the discarding, and
        /// an error thrown before then fails the stream.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that omits elements until the error-throwing predicate
        /// returns false.
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
                    WhileStepper(mode: .drop) { input in Result { try predicate(input) } }, downstream: subscriber,
                    name: "TryDropWhile",
                    edges: .lenient(values: .ignore, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: true),
                    reflection: .empty, convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Discards the upstream's elements as long as `predicate` returns `true`, then republishes
    /// everything from the first element it rejects.
    ///
    /// ![A marble diagram of drop(while:), drawn from a run of it](marble-drop-while)
    ///
    /// `predicate` is called on each element until it first returns `false`; that element and
    /// every later one are republished without calling it again. Each dropped element is
    /// replaced by a request upstream for one more, so dropping doesn't use up the
    /// subscriber's demand. The upstream's completion is passed on. Requesting `.none` from
    /// this publisher traps.
    ///
    /// ```swift
    /// let cancellable = [1, 3, 8, 2, 9].publisher
    ///     .drop(while: { $0 < 5 })
    ///     .sink { print($0) }
    /// // Prints: 8, 2, 9
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns `true` to drop it
    ///   or `false` to start republishing.
    /// - Returns: A `Publishers.DropWhile` publisher that republishes the elements from the
    ///   first one that fails `predicate` on.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }

    /// Discards the upstream's elements as long as a closure that can throw returns `true`,
    /// then republishes everything from the first element it rejects.
    ///
    /// ![A marble diagram of tryDrop(while:), drawn from a run of it](marble-tryDrop)
    ///
    /// It works as `drop(while:)` does, except that when `predicate` throws (it is only called
    /// until it first returns `false`), the upstream is cancelled and the error is sent as the
    /// failure. An upstream failure is passed on as `any Error`.
    ///
    /// ```swift
    /// enum ReadingError: Error { case negative }
    ///
    /// let cancellable = [1, 3, -1, 8].publisher
    ///     .tryDrop(while: { value in
    ///         guard value >= 0 else { throw ReadingError.negative }
    ///         return value < 5
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: negative
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns `true` to drop it
    ///   or `false` to start republishing, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryDropWhile` publisher that republishes the elements from the
    ///   first one that fails `predicate` on, or fails with the error it threw.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
