// `Result.Publisher`'s own operators: the result is known, so each operator computes its
// result at once, as Combine does.

extension Result.Publisher where Output: Equatable {
    /// Publishes whether the value equals `output`, or the failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map { $0 == output })
    }

    /// Publishes the result: one value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// Publishes the result: the minimum of one value.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result: the maximum of one value.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher {
    /// Publishes whether the value satisfies `predicate`, or the failure.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or an error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(trying(predicate))
    }

    /// Publishes the value in an array, or the failure.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(result.map { [$0] })
    }

    /// Publishes the result: the minimum of one value.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
    @inlinable
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        checkingValue(with: areInIncreasingOrder)
    }

    /// Publishes the result: the maximum of one value.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
    @inlinable
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, any Error>.Publisher
    {
        checkingValue(with: areInIncreasingOrder)
    }

    /// Publishes whether the value satisfies `predicate`, or the failure.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(result.map(predicate))
    }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or an error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result<Bool, any Error>.Publisher(trying(predicate))
    }

    /// Publishes 1, or the failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(result.map { _ in 1 })
    }

    /// Publishes the result.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// Publishes no value.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed value, or the failure.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Publishes the transformed value, or the failure or the error `transform` throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(trying(transform))
    }

    /// Publishes the value, or the converted failure.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Publishes the result: one value has no duplicates.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result, or the error the predicate throws when Apple's calls it with
    /// the value twice.
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
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        Result<Output, Never>.Publisher((try? result.get()) ?? output)
    }

    /// Publishes the result: it is never empty.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// Publishes the result: retrying it gives the same result.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or an error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(trying { try nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or an error.
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
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.get())
    }
}
