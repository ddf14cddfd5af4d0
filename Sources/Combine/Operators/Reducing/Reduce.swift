// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that folds every upstream element into a running result with a closure and
    /// sends that result once the upstream finishes.
    ///
    /// ```
    /// upstream:    --1--2--3--|
    /// reduce(0,+): -----------6|
    /// ```
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The running result's starting value, passed to the closure with the first element.
        public let initial: Output

        /// A closure that receives the running result and the next upstream element and
        /// returns the new running result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that folds the upstream's elements into one result, starting
        /// from `initial`, and sends it when the upstream finishes.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            let reducer = Accumulator(value: initial, next: nextPartialResult)
            upstream.subscribe(
                ReducingSubscription<Accumulator, Failure, S>(
                    reducer, downstream: subscriber, name: "Reduce", convertFailure: sameFailure))
        }

        struct Accumulator: Reducer {
            var value: Output
            let next: (Output, Upstream.Output) -> Output

            mutating func receive(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
                value = next(value, input)
                return .continue
            }

            func result() -> Output? { value }
        }
    }

    /// A publisher that folds every upstream element into a running result with a closure that
    /// can throw, and sends that result once the upstream finishes.
    ///
    /// A thrown error cancels the upstream and becomes the failure.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// It fails with `any Error`: an upstream failure or an error a closure threw.
        public typealias Failure = any Error

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The running result's starting value, passed to the closure with the first element.
        public let initial: Output

        /// A closure that receives the running result and the next upstream element and
        /// returns the new running result, or throws to fail the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that applies an error-throwing closure to all received elements.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            let reducer = Accumulator(value: initial, next: nextPartialResult)
            upstream.subscribe(
                ReducingSubscription<Accumulator, Upstream.Failure, S>(
                    reducer, downstream: subscriber, name: "TryReduce", convertFailure: anyFailure))
        }

        struct Accumulator: Reducer {
            var value: Output
            let next: (Output, Upstream.Output) throws -> Output

            mutating func receive(_ input: Upstream.Output) -> ReduceStep<any Error> {
                do {
                    value = try next(value, input)
                    return .continue
                } catch {
                    return .fail(error)
                }
            }

            func result() -> Output? { value }
        }
    }
}

extension Publisher {
    /// Combines every element from the upstream publisher into one value with a closure, and
    /// publishes that value when the upstream finishes.
    ///
    /// ![A marble diagram of reduce(_:_:), drawn from a run of it](marble-reduce)
    ///
    /// Starting from `initialResult`, the closure is called with the running result and each
    /// element in turn, and what it returns becomes the new running result. When the upstream
    /// finishes, the final result (`initialResult` itself if no element came) is published,
    /// followed by `.finished`, once the subscriber has requested a value. The operator asks
    /// the upstream for everything as soon as it is subscribed; an upstream failure is passed
    /// on without a result. To publish every intermediate result instead, use `scan(_:_:)`.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher
    ///     .reduce(0, +)
    ///     .sink { print($0) }
    /// // Prints: 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from; it is published as is if the upstream
    ///     produces no element.
    ///   - nextPartialResult: A closure that takes the running result and the next element and
    ///     returns the new running result.
    /// - Returns: A `Publishers.Reduce` publisher that publishes the final accumulated value.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Combines every element from the upstream publisher into one value with a closure that
    /// can throw, and publishes that value when the upstream finishes.
    ///
    /// ![A marble diagram of tryReduce(_:_:), drawn from a run of it](marble-tryReduce)
    ///
    /// It works as `reduce(_:_:)` does, except that when `nextPartialResult` throws, the
    /// upstream is cancelled and the error is sent as the failure, with no result. An upstream
    /// failure is passed on as `any Error`.
    ///
    /// ```swift
    /// enum SumError: Error { case overflow }
    ///
    /// let cancellable = [Int.max, 1].publisher
    ///     .tryReduce(0) { sum, value in
    ///         let (result, overflow) = sum.addingReportingOverflow(value)
    ///         if overflow { throw SumError.overflow }
    ///         return result
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("Failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: Failed: overflow
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The value to start from; it is published as is if the upstream
    ///     produces no element.
    ///   - nextPartialResult: A closure that takes the running result and the next element and
    ///     returns the new running result, or throws to end the stream with a failure.
    /// - Returns: A `Publishers.TryReduce` publisher that publishes the final accumulated
    ///   value, or fails with the error the closure threw.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
