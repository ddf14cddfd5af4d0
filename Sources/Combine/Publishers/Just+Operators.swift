// `Just`'s own operators: the value is known, so each operator computes its result at once
// and returns the simplest publisher of it, as Combine does. These overloads are part of
// users' type signatures (`Just(1).map { $0 }` is a `Just<Int>`).

extension Just where Output: Comparable {
    /// Publishes the value: the minimum of one value.
    @inlinable
    public func min() -> Just<Output> { self }

    /// Publishes the value: the maximum of one value.
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Publishes whether the value equals `output`.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// Publishes the value: one value has no duplicates.
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Publishes whether the value satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or its error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try predicate(output) }.publisher
    }

    /// Publishes the value in an array.
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// Publishes the non-`nil` result of `transform`, or only finishes.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// Publishes the value: the minimum of one value.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value: the maximum of one value.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes `elements`, then the value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

    /// Publishes `elements`, then the value.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        // As Apple's: one allocation sized from `elements`, then both appended.
        var combined: [Output] = []
        combined.reserveCapacity(elements.underestimatedCount + 1)
        combined.append(contentsOf: elements)
        combined.append(output)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes the value, then `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

    /// Publishes the value, then `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var combined = [output]
        combined.append(contentsOf: elements)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes whether the value satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or its error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try predicate(output) }.publisher
    }

    /// Publishes 1.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// Publishes the value unless it is dropped.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:): the count must not be negative")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// Publishes the value unless it satisfies `predicate`.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// Publishes the value.
    @inlinable
    public func first() -> Just<Output> { self }

    /// Publishes the value if it satisfies `predicate`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value.
    @inlinable
    public func last() -> Just<Output> { self }

    /// Publishes the value if it satisfies `predicate`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Only finishes.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// Publishes the transformed value, or the error `transform` throws.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result { try transform(output) }.publisher
    }

    /// Publishes the value, with a failure type that can't occur.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Publishes the value if `index` is 0.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:): the index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the value if `range` starts at 0. As Apple's, an empty range that starts at
    /// 0 publishes it too (recorded by the Apple-verified conformance suite).
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the value unless `maxLength` is 0.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix(_:): the maximum length must not be negative")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if it satisfies `predicate`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes `nextPartialResult(initialResult, value)`.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the error it throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try nextPartialResult(initialResult, output) }.publisher
    }

    /// Publishes the value: one value has no duplicates.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value, or the error `predicate` throws when Apple's calls it with the
    /// value twice.
    @inlinable
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool)
        -> Result<Output, any Error>.Publisher
    {
        Result<Output, any Error>.Publisher(
            Result {
                _ = try predicate(output, output)
                return output
            })
    }

    /// Publishes the value: `Just` never fails.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// Publishes the value: `Just` is never empty.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// Publishes the value: `Just` never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> { self }

    /// Publishes `nextPartialResult(initialResult, value)`.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the error it throws.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try nextPartialResult(initialResult, output) }.publisher
    }

    /// Publishes the value with the given failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }
}
