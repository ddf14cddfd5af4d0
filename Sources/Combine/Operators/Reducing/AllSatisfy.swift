// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that answers, with one `Bool`, whether every element of the upstream passes a
    /// test.
    ///
    /// ```
    /// upstream:                  --2--4--5--|
    /// allSatisfy({ $0.isEven }):  --------false|   (upstream cancelled at 5)
    /// ```
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// It sends a single `Bool`, the answer.
        public typealias Output = Bool
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that indicates whether all received elements pass a predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, Failure>, Failure, S>(
                    SearchReducer(allSatisfying: { .success(predicate($0)) }), downstream: subscriber,
                    name: "AllSatisfy", convertFailure: sameFailure))
        }
    }

    /// A publisher that answers, with one `Bool`, whether every element of the upstream passes a
    /// test that can throw; a thrown error cancels the upstream and becomes the failure.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// It sends a single `Bool`, the answer.
        public typealias Output = Bool
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that indicates whether all received elements pass an
        /// error-throwing predicate.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Failure == any Error, S.Input == Bool {
            let predicate = self.predicate
            upstream.subscribe(
                ReducingSubscription<SearchReducer<Upstream.Output, Bool, any Error>, Upstream.Failure, S>(
                    SearchReducer(allSatisfying: { input in Result { try predicate(input) } }),
                    downstream: subscriber, name: "TryAllSatisfy", convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that tells whether every element from the upstream
    /// publisher passes a test.
    ///
    /// ![A marble diagram of allSatisfy(_:), drawn from a run of it](marble-allSatisfy)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and calls
    /// `predicate` on each element. At the first element that fails, it cancels the upstream
    /// and publishes `false`; if the upstream finishes with every element passing (or with no
    /// element at all), it publishes `true`. The Boolean waits until the subscriber has
    /// requested a value and is followed by `.finished`. An upstream failure is passed on
    /// without a Boolean.
    ///
    /// ```swift
    /// let cancellable = [2, 4, 7, 8].publisher
    ///     .allSatisfy { $0.isMultiple(of: 2) }
    ///     .sink { print($0) }
    /// // Prints: false
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it passes
    ///   the test.
    /// - Returns: A `Publishers.AllSatisfy` publisher that publishes one Boolean: `true` if
    ///   every element passed, `false` as soon as one did not.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// Publishes a single Boolean value that tells whether every element from the upstream
    /// publisher passes a test that can throw.
    ///
    /// ![A marble diagram of tryAllSatisfy(_:), drawn from a run of it](marble-tryAllSatisfy)
    ///
    /// It works as `allSatisfy(_:)` does, except that when `predicate` throws, the upstream is
    /// cancelled and the error is sent as the failure, with no Boolean. An upstream failure is
    /// passed on as `any Error`.
    ///
    /// ```swift
    /// enum ReadingError: Error { case negative }
    ///
    /// let cancellable = [1, 2, -3, 4].publisher
    ///     .tryAllSatisfy { value in
    ///         guard value >= 0 else { throw ReadingError.negative }
    ///         return value < 10
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: negative
    /// ```
    ///
    /// - Parameter predicate: A closure that receives an element and returns whether it passes
    ///   the test, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryAllSatisfy` publisher that publishes one Boolean, or fails
    ///   with the error the predicate threw.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
