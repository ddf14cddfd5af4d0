// SPDX-License-Identifier: Apache-2.0
// `Result.Publisher`'s own operators: the result is known, so each operator computes its
// result at once, as Combine does.

extension Result.Publisher where Output: Equatable {
    /// Publishes whether the value equals `output`, or the failure.
    ///
    /// ![A marble diagram of contains(_:), drawn from a run of it](marble-Result-contains)
    ///
    /// The comparison is made at this call.
    ///
    /// - Parameter output: The element to compare with the value.
    /// - Returns: A `Result.Publisher` of the answer, or of this publisher's failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// Publishes the result: one value has no duplicates.
    ///
    /// ![A marble diagram of removeDuplicates(), drawn from a run of it](marble-Result-removeDuplicates)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// Publishes the result: the minimum of one value.
    ///
    /// ![A marble diagram of min(), drawn from a run of it](marble-Result-min)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result: the maximum of one value.
    ///
    /// ![A marble diagram of max(), drawn from a run of it](marble-Result-max)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// Publishes whether the value satisfies `predicate`, or the failure.
    ///
    /// ![A marble diagram of allSatisfy(_:), drawn from a run of it](marble-Result-allSatisfy)
    ///
    /// `predicate` runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: A `Result.Publisher` of the answer, or of this publisher's failure.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or an error.
    ///
    /// ![A marble diagram of tryAllSatisfy(_:), drawn from a run of it](marble-Result-tryAllSatisfy)
    ///
    /// `predicate` runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameter predicate: An error-throwing closure that tests the value.
    /// - Returns: A `Result.Publisher` of the answer, or of the failure or the thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(trying(predicate))
    }

    /// Publishes the value in an array, or the failure.
    ///
    /// ![A marble diagram of collect(), drawn from a run of it](marble-Result-collect)
    ///
    /// - Returns: A `Result.Publisher` of a one-element array, or of this publisher's failure.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Publishes the result: the minimum of one value.
    ///
    /// ![A marble diagram of min(by:), drawn from a run of it](marble-Result-min-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for a single value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
    ///
    /// ![A marble diagram of tryMin(by:), drawn from a run of it](marble-Result-tryMin-by)
    ///
    /// The closure runs at most once, at this call, with the value as both arguments; its answer
    /// is ignored.
    ///
    /// - Parameter areInIncreasingOrder: An error-throwing ordering closure.
    /// - Returns: A `Result.Publisher` of the value, or of the failure or the thrown error.
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        checkingValue(with: areInIncreasingOrder)
    }

    /// Publishes the result: the maximum of one value.
    ///
    /// ![A marble diagram of max(by:), drawn from a run of it](marble-Result-max-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for a single value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
    ///
    /// ![A marble diagram of tryMax(by:), drawn from a run of it](marble-Result-tryMax-by)
    ///
    /// The closure runs at most once, at this call, with the value as both arguments; its answer
    /// is ignored.
    ///
    /// - Parameter areInIncreasingOrder: An error-throwing ordering closure.
    /// - Returns: A `Result.Publisher` of the value, or of the failure or the thrown error.
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        checkingValue(with: areInIncreasingOrder)
    }

    /// Publishes whether the value satisfies `predicate`, or the failure.
    ///
    /// ![A marble diagram of contains(where:), drawn from a run of it](marble-Result-contains-where)
    ///
    /// `predicate` runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: A `Result.Publisher` of the answer, or of this publisher's failure.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or an error.
    ///
    /// ![A marble diagram of tryContains(where:), drawn from a run of it](marble-Result-tryContains-where)
    ///
    /// `predicate` runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameter predicate: An error-throwing closure that tests the value.
    /// - Returns: A `Result.Publisher` of the answer, or of the failure or the thrown error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(trying(predicate))
    }

    /// Publishes 1, or the failure.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Result-count)
    ///
    /// - Returns: A `Result.Publisher` of `1`, or of this publisher's failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Publishes the result.
    ///
    /// ![A marble diagram of first(), drawn from a run of it](marble-Result-first)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result.
    ///
    /// ![A marble diagram of last(), drawn from a run of it](marble-Result-last)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// Publishes no value.
    ///
    /// ![A marble diagram of ignoreOutput(), drawn from a run of it](marble-Result-ignoreOutput)
    ///
    /// The result is an `Empty` publisher, which only finishes, so a failed result's failure is
    /// dropped too, where the general `ignoreOutput()` would pass it on:
    ///
    /// ```swift
    /// struct Broken: Error {}
    ///
    /// let cancellable = Result<Int, Broken>.failure(Broken()).publisher
    ///     .ignoreOutput()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: finished
    /// ```
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed value, or the failure.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-Result-map)
    ///
    /// `transform` runs at most once, at this call, and the result is again a `Result.Publisher`:
    ///
    /// ```swift
    /// let cancellable = Result<Int, URLError>.success(20).publisher
    ///     .map { $0 + 1 }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 21, then finished
    /// ```
    ///
    /// - Parameter transform: A closure that converts the value.
    /// - Returns: A `Result.Publisher` of the converted value, or of this publisher's failure.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Publishes the transformed value, or the failure or the error `transform` throws.
    ///
    /// ![A marble diagram of tryMap(_:), drawn from a run of it](marble-Result-tryMap)
    ///
    /// `transform` runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameter transform: An error-throwing closure that converts the value.
    /// - Returns: A `Result.Publisher` of the converted value, or of the failure or the thrown
    ///   error.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(trying(transform))
    }

    /// Publishes the value, or the converted failure.
    ///
    /// ![A marble diagram of mapError(_:), drawn from a run of it](marble-Result-mapError)
    ///
    /// `transform` runs at most once, at this call, and only for a failed result.
    ///
    /// - Parameter transform: A closure that converts the failure.
    /// - Returns: A `Result.Publisher` of the value, or of the converted failure.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Publishes the result: one value has no duplicates.
    ///
    /// ![A marble diagram of removeDuplicates(by:), drawn from a run of it](marble-Result-removeDuplicates-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter predicate: An equivalence closure, unused for a single value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
    ///
    /// ![A marble diagram of tryRemoveDuplicates(by:), drawn from a run of it](marble-Result-tryRemoveDuplicates-by)
    ///
    /// The closure runs at most once, at this call, with the value as both arguments; its answer
    /// is ignored.
    ///
    /// - Parameter predicate: An error-throwing equivalence closure.
    /// - Returns: A `Result.Publisher` of the value, or of the failure or the thrown error.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        checkingValue(with: predicate)
    }

    /// The result, after calling `predicate` with the value twice (as Apple's `try`
    /// comparisons of one value do): its error, if it throws, replaces the value.
    @inlinable
    func checkingValue(with predicate: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher {
        Result<Output, any Error>.Publisher(
            result.mapError { $0 }.flatMap { value in
                Result<Output, any Error> {
                    _ = try predicate(value, value)
                    return value
                }
            })
    }

    /// Publishes the value, or `output` in place of the failure.
    ///
    /// ![A marble diagram of replaceError(with:), drawn from a run of it](marble-Result-replaceError-with)
    ///
    /// - Parameter output: The element to publish if this result is a failure.
    /// - Returns: A `Result.Publisher` that can't fail, of the value or of `output`.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        Result<Output, Never>.Publisher((try? result.get()) ?? output)
    }

    /// Publishes the result: it is never empty.
    ///
    /// ![A marble diagram of replaceEmpty(with:), drawn from a run of it](marble-Result-replaceEmpty-with)
    ///
    /// - Parameter output: A replacement for an empty stream; never used.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result: retrying it gives the same result.
    ///
    /// ![A marble diagram of retry(_:), drawn from a run of it](marble-Result-retry)
    ///
    /// - Parameter times: The number of retries; unused.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
    ///
    /// ![A marble diagram of reduce(_:_:), drawn from a run of it](marble-Result-reduce)
    ///
    /// The closure runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: A `Result.Publisher` of the combined result, or of this publisher's failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or an error.
    ///
    /// ![A marble diagram of tryReduce(_:_:), drawn from a run of it](marble-Result-tryReduce)
    ///
    /// The closure runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: An error-throwing closure that combines `initialResult` with the
    ///     value.
    /// - Returns: A `Result.Publisher` of the combined result, or of the failure or the thrown
    ///   error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(trying { try nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
    ///
    /// ![A marble diagram of scan(_:_:), drawn from a run of it](marble-Result-scan)
    ///
    /// The closure runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the value.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: A `Result.Publisher` of the one running result, or of this publisher's failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or an error.
    ///
    /// ![A marble diagram of tryScan(_:_:), drawn from a run of it](marble-Result-tryScan)
    ///
    /// The closure runs at most once, at this call. A failed result keeps its failure and the closure is not called.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the value.
    ///   - nextPartialResult: An error-throwing closure that combines `initialResult` with the
    ///     value.
    /// - Returns: A `Result.Publisher` of the one running result, or of the failure or the thrown
    ///   error.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(trying { try nextPartialResult(initialResult, $0) })
    }

    /// The result of `body` over the value, its thrown error, or the failure.
    @inlinable
    func trying<T>(_ body: (Output) throws -> T) -> Result<T, any Error> {
        switch result {
        case .success(let value): Result<T, any Error> { try body(value) }
        case .failure(let error): .failure(error)
        }
    }
}

extension Result.Publisher where Failure == Never {
    /// Publishes the value with the given failure type.
    ///
    /// ![A marble diagram of setFailureType(to:), drawn from a run of it](marble-Result-setFailureType-to)
    ///
    /// - Parameter failureType: The failure type to declare, for example `URLError.self`.
    /// - Returns: A `Result.Publisher` of the value with the failure type `E`; it never actually
    ///   fails.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.get())
    }
}
