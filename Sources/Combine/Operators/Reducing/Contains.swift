// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specified element from its
    /// upstream publisher.
    ///
    /// ```
    /// upstream:     --1--2--3--|
    /// contains(2):  -----true|      (upstream cancelled at the match)
    /// ```
    ///
    /// It publishes `false` if the upstream finishes without the element.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// It sends a single `Bool`, the answer.
        public typealias Output = Bool
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that emits a Boolean value when it receives a specified element.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let output = self.output
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(containing: { .success($0 == output) }), downstream: subscriber, name: "Contains",
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that sends `true` as soon as an upstream element passes a test, or `false` if
    /// the upstream finishes without one.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// It sends a single `Bool`, the answer.
        public typealias Output = Bool
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The test each element goes through; the first that passes ends the search.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that tells whether any upstream element passes `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(containing: { .success(predicate($0)) }), downstream: subscriber,
                    name: "ContainsWhere", convertFailure: sameFailure))
        }
    }

    /// A publisher that sends `true` as soon as an upstream element passes a test that can
    /// throw, or `false` if the upstream finishes without one; a thrown error becomes the
    /// failure.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// It sends a single `Bool`, the answer.
        public typealias Output = Bool
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit a
        /// true element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that tells whether any upstream element passes `predicate`, which
        /// can throw.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, any Error>, Upstream.Failure, S>(
                    SearchReducer(containing: { input in Result { try predicate(input) } }), downstream: subscriber,
                    name: "TryContainsWhere", convertFailure: anyFailure))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
    /// Publishes `true` as soon as the upstream publisher produces an element equal to the
    /// given one, or `false` if it finishes without one.
    ///
    /// ![A marble diagram of contains(_:), drawn from a run of it](marble-contains)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and compares
    /// each element with `==`. At the first match it cancels the upstream. The Boolean waits
    /// until the subscriber has requested a value and is followed by `.finished`. An upstream
    /// failure before a match is passed on without a Boolean.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .contains(2)
    ///     .sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter output: The element to look for.
    /// - Returns: A `Publishers.Contains` publisher that publishes one Boolean: whether the
    ///   element was seen.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes `true` as soon as the upstream publisher produces an element that satisfies
    /// a predicate, or `false` if it finishes without one.
    ///
    /// ![A marble diagram of contains(where:), drawn from a run of it](marble-contains-where)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and calls
    /// `predicate` on each element until one passes; that match cancels the upstream. The
    /// Boolean waits until the subscriber has requested a value and is followed by
    /// `.finished`. An upstream failure before a match is passed on without a Boolean.
    ///
    /// ```swift
    /// let cancellable = [3, 8, 12].publisher
    ///     .contains(where: { $0 > 10 })
    ///     .sink { print($0) }
    /// // Prints: true
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it is a
    ///   match.
    /// - Returns: A `Publishers.ContainsWhere` publisher that publishes one Boolean: whether a
    ///   matching element was seen.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// Publishes `true` as soon as the upstream publisher produces an element that satisfies
    /// a predicate that can throw, or `false` if it finishes without one.
    ///
    /// ![A marble diagram of tryContains(where:), drawn from a run of it](marble-tryContains)
    ///
    /// It works as `contains(where:)` does, except that when `predicate` throws, the upstream
    /// is cancelled and the error is sent as the failure, with no Boolean. An upstream failure
    /// is passed on as `any Error`.
    ///
    /// ```swift
    /// enum LookupError: Error { case emptyName }
    ///
    /// let cancellable = ["Ann", "", "Bo"].publisher
    ///     .tryContains(where: { name in
    ///         guard !name.isEmpty else { throw LookupError.emptyName }
    ///         return name == "Bo"
    ///     })
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: emptyName
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it is a
    ///   match, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryContainsWhere` publisher that publishes one Boolean, or
    ///   fails with the error the predicate threw.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
