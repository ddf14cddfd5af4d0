// SPDX-License-Identifier: Apache-2.0
// `Just`'s own operators: the value is known, so each operator computes its result at once
// and returns the simplest publisher of it, as Combine does. These overloads are part of
// users' type signatures (`Just(1).map { $0 }` is a `Just<Int>`).

extension Just where Output: Comparable {
    /// Publishes the value: the minimum of one value.
    ///
    /// ![A marble diagram of min(), drawn from a run of it](marble-Just-min)
    ///
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func min() -> Just<Output> { self }

    /// Publishes the value: the maximum of one value.
    ///
    /// ![A marble diagram of max(), drawn from a run of it](marble-Just-max)
    ///
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Publishes whether the value equals `output`.
    ///
    /// ![A marble diagram of contains(_:), drawn from a run of it](marble-Just-contains)
    ///
    /// The comparison is made at this call.
    ///
    /// - Parameter output: The element to compare with the value.
    /// - Returns: A `Just` publishing `true` if the value equals `output`, else `false`.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// Publishes the value: one value has no duplicates.
    ///
    /// ![A marble diagram of removeDuplicates(), drawn from a run of it](marble-Just-removeDuplicates)
    ///
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func removeDuplicates() -> Just<Output> { self }
}

extension Just {
    /// Publishes whether the value satisfies `predicate`.
    ///
    /// ![A marble diagram of allSatisfy(_:), drawn from a run of it](marble-Just-allSatisfy)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: A `Just` publishing the closure's answer.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or its error.
    ///
    /// ![A marble diagram of tryAllSatisfy(_:), drawn from a run of it](marble-Just-tryAllSatisfy)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: An error-throwing closure that tests the value.
    /// - Returns: A `Result.Publisher` that publishes the closure's answer, or fails with the
    ///   error it threw.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try predicate(output) }.publisher
    }

    /// Publishes the value in an array.
    ///
    /// ![A marble diagram of collect(), drawn from a run of it](marble-Just-collect)
    ///
    /// - Returns: A `Just` publishing a one-element array.
    @inlinable
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// Publishes the non-`nil` result of `transform`, or only finishes.
    ///
    /// ![A marble diagram of compactMap(_:), drawn from a run of it](marble-Just-compactMap)
    ///
    /// `transform` runs once, at this call, and the result is an `Optional.Publisher` rather than a
    /// `Publishers.CompactMap`:
    ///
    /// ```swift
    /// let number: Optional<Int>.Publisher = Just("x").compactMap { Int($0) }
    /// let cancellable = number.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: finished (no value: "x" is not a number)
    /// ```
    ///
    /// - Parameter transform: A closure that converts the value, or returns `nil` to publish
    ///   nothing.
    /// - Returns: An `Optional.Publisher` of the closure's result.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }

    /// Publishes the value: the minimum of one value.
    ///
    /// ![A marble diagram of min(by:), drawn from a run of it](marble-Just-min-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for a single value.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value: the maximum of one value.
    ///
    /// ![A marble diagram of max(by:), drawn from a run of it](marble-Just-max-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for a single value.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes `elements`, then the value.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-Just-prepend)
    ///
    /// - Parameter elements: The elements to publish before the value.
    /// - Returns: A `Publishers.Sequence` over an array of `elements` followed by the value.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { prepend(elements) }

    /// Publishes `elements`, then the value.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-Just-prepend-2)
    ///
    /// - Parameter elements: A sequence whose elements are published before the value; it is
    ///   copied into an array at this call.
    /// - Returns: A `Publishers.Sequence` over an array of `elements` followed by the value.
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
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-Just-append)
    ///
    /// - Parameter elements: The elements to publish after the value.
    /// - Returns: A `Publishers.Sequence` over an array of the value followed by `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Never> { append(elements) }

    /// Publishes the value, then `elements`.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-Just-append-2)
    ///
    /// - Parameter elements: A sequence whose elements are published after the value; it is
    ///   copied into an array at this call.
    /// - Returns: A `Publishers.Sequence` over an array of the value followed by `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never> where Output == S.Element {
        var combined = [output]
        combined.append(contentsOf: elements)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes whether the value satisfies `predicate`.
    ///
    /// ![A marble diagram of contains(where:), drawn from a run of it](marble-Just-contains-where)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: A `Just` publishing the closure's answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// Publishes whether the value satisfies the error-throwing `predicate`, or its error.
    ///
    /// ![A marble diagram of tryContains(where:), drawn from a run of it](marble-Just-tryContains-where)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: An error-throwing closure that tests the value.
    /// - Returns: A `Result.Publisher` that publishes the closure's answer, or fails with the
    ///   error it threw.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try predicate(output) }.publisher
    }

    /// Publishes 1.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Just-count)
    ///
    /// - Returns: A `Just` publishing `1`, the number of values a `Just` publishes.
    @inlinable
    public func count() -> Just<Int> { Just<Int>(1) }

    /// Publishes the value unless it is dropped.
    ///
    /// ![A marble diagram of dropFirst(_:), drawn from a run of it](marble-Just-dropFirst)
    ///
    /// - Precondition: `count` is not negative.
    /// - Parameter count: The number of values to drop; any count above 0 drops the value.
    /// - Returns: An `Optional.Publisher` of the value when `count` is 0, or an empty one that
    ///   only finishes.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        apiPrecondition(count >= 0, "dropFirst(_:): the count must not be negative")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// Publishes the value unless it satisfies `predicate`.
    ///
    /// ![A marble diagram of drop(while:), drawn from a run of it](marble-Just-drop-while)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` to drop the value.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if it was dropped.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }

    /// Publishes the value.
    ///
    /// ![A marble diagram of first(), drawn from a run of it](marble-Just-first)
    ///
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func first() -> Just<Output> { self }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of first(where:), drawn from a run of it](marble-Just-first-where)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value.
    ///
    /// ![A marble diagram of last(), drawn from a run of it](marble-Just-last)
    ///
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func last() -> Just<Output> { self }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of last(where:), drawn from a run of it](marble-Just-last-where)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies `isIncluded`.
    ///
    /// ![A marble diagram of filter(_:), drawn from a run of it](marble-Just-filter)
    ///
    /// `isIncluded` runs once, at this call, and the result is an `Optional.Publisher` rather than a
    /// `Publishers.Filter`:
    ///
    /// ```swift
    /// let cancellable = Just(3)
    ///     .filter { $0.isMultiple(of: 2) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: finished (3 is odd)
    /// ```
    ///
    /// - Parameter isIncluded: A closure that returns `true` to publish the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Only finishes.
    ///
    /// ![A marble diagram of ignoreOutput(), drawn from a run of it](marble-Just-ignoreOutput)
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-Just-map)
    ///
    /// `transform` runs once, at this call, not once per subscriber, and the result is again a
    /// `Just`, so the value stays known and later operators can use `Just`'s overloads too:
    ///
    /// ```swift
    /// let doubled: Just<Int> = Just(21).map { $0 * 2 }
    /// print(doubled.output)
    /// // Prints: 42
    /// ```
    ///
    /// - Parameter transform: A closure that converts the value.
    /// - Returns: A `Just` publishing the converted value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// Publishes the transformed value, or the error `transform` throws.
    ///
    /// ![A marble diagram of tryMap(_:), drawn from a run of it](marble-Just-tryMap)
    ///
    /// `transform` runs once, at this call.
    ///
    /// ```swift
    /// struct Invalid: Error {}
    ///
    /// let parsed: Result<Int, any Error>.Publisher = Just("x").tryMap { text -> Int in
    ///     guard let number = Int(text) else { throw Invalid() }
    ///     return number
    /// }
    /// // parsed.result is .failure(Invalid()): a subscriber receives the failure at once.
    /// ```
    ///
    /// - Parameter transform: An error-throwing closure that converts the value.
    /// - Returns: A `Result.Publisher` that publishes the converted value, or fails with the error
    ///   the closure threw.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result { try transform(output) }.publisher
    }

    /// Publishes the value, with a failure type that can't occur.
    ///
    /// ![A marble diagram of mapError(_:), drawn from a run of it](marble-Just-mapError)
    ///
    /// `Just` never fails, so `transform` is never called; only the failure type changes.
    ///
    /// - Parameter transform: A closure that would convert a failure; never called.
    /// - Returns: A `Result.Publisher` of the value with the failure type `E`.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Publishes the value if `index` is 0.
    ///
    /// ![A marble diagram of output(at:), drawn from a run of it](marble-Just-output-at)
    ///
    /// - Precondition: `index` is not negative.
    /// - Parameter index: The position of the element to publish; only 0 has one.
    /// - Returns: An `Optional.Publisher` of the value when `index` is 0, or an empty one.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        apiPrecondition(index >= 0, "output(at:): the index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the value if `range` starts at 0. As Apple's, an empty range that starts at
    /// 0 publishes it too (recorded by the Apple-verified conformance suite).
    ///
    /// ![A marble diagram of output(in:), drawn from a run of it](marble-Just-output-in)
    ///
    /// - Parameter range: The positions of the elements to publish.
    /// - Returns: An `Optional.Publisher` of the value when `range` starts at 0, or an empty one.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// Publishes the value unless `maxLength` is 0.
    ///
    /// ![A marble diagram of prefix(_:), drawn from a run of it](marble-Just-prefix)
    ///
    /// - Precondition: `maxLength` is not negative.
    /// - Parameter maxLength: The most elements to publish.
    /// - Returns: An `Optional.Publisher` of the value when `maxLength` is above 0, or an empty
    ///   one.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        apiPrecondition(maxLength >= 0, "prefix(_:): the maximum length must not be negative")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of prefix(while:), drawn from a run of it](marble-Just-prefix-while)
    ///
    /// `predicate` runs once, at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` to keep the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes `nextPartialResult(initialResult, value)`.
    ///
    /// ![A marble diagram of reduce(_:_:), drawn from a run of it](marble-Just-reduce)
    ///
    /// The closure runs once, at this call.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: A `Result.Publisher` that publishes the combined result and can't fail.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the error it throws.
    ///
    /// ![A marble diagram of tryReduce(_:_:), drawn from a run of it](marble-Just-tryReduce)
    ///
    /// The closure runs once, at this call.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: An error-throwing closure that combines `initialResult` with the
    ///     value.
    /// - Returns: A `Result.Publisher` that publishes the combined result, or fails with the error
    ///   the closure threw.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try nextPartialResult(initialResult, output) }.publisher
    }

    /// Publishes the value: one value has no duplicates.
    ///
    /// ![A marble diagram of removeDuplicates(by:), drawn from a run of it](marble-Just-removeDuplicates-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter predicate: An equivalence closure, unused for a single value.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// Publishes the value, or the error `predicate` throws when Apple's calls it with the
    /// value twice.
    ///
    /// ![A marble diagram of tryRemoveDuplicates(by:), drawn from a run of it](marble-Just-tryRemoveDuplicates-by)
    ///
    /// The closure runs once, at this call, with the value as both arguments; its answer is
    /// ignored.
    ///
    /// - Parameter predicate: An error-throwing equivalence closure.
    /// - Returns: A `Result.Publisher` that publishes the value, or fails with the error the
    ///   closure threw.
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
    ///
    /// ![A marble diagram of replaceError(with:), drawn from a run of it](marble-Just-replaceError-with)
    ///
    /// - Parameter output: A replacement for a failure; never used.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// Publishes the value: `Just` is never empty.
    ///
    /// ![A marble diagram of replaceEmpty(with:), drawn from a run of it](marble-Just-replaceEmpty-with)
    ///
    /// - Parameter output: A replacement for an empty stream; never used.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// Publishes the value: `Just` never fails, so there is nothing to retry.
    ///
    /// ![A marble diagram of retry(_:), drawn from a run of it](marble-Just-retry)
    ///
    /// - Parameter times: The number of retries; unused.
    /// - Returns: This `Just`, unchanged.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> { self }

    /// Publishes `nextPartialResult(initialResult, value)`.
    ///
    /// ![A marble diagram of scan(_:_:), drawn from a run of it](marble-Just-scan)
    ///
    /// The closure runs once, at this call.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the value.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: A `Result.Publisher` that publishes the one running result and can't fail.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or the error it throws.
    ///
    /// ![A marble diagram of tryScan(_:_:), drawn from a run of it](marble-Just-tryScan)
    ///
    /// The closure runs once, at this call.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the value.
    ///   - nextPartialResult: An error-throwing closure that combines `initialResult` with the
    ///     value.
    /// - Returns: A `Result.Publisher` that publishes the one running result, or fails with the
    ///   error the closure threw.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try nextPartialResult(initialResult, output) }.publisher
    }

    /// Publishes the value with the given failure type.
    ///
    /// ![A marble diagram of setFailureType(to:), drawn from a run of it](marble-Just-setFailureType-to)
    ///
    /// - Parameter failureType: The failure type to declare, for example `URLError.self`.
    /// - Returns: A `Result.Publisher` of the value with the failure type `E`; it never actually
    ///   fails.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }
}
