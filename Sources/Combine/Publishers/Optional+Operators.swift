// SPDX-License-Identifier: Apache-2.0
// `Optional.Publisher`'s own operators: the value (or its absence) is known, so each
// operator computes its result at once, as Combine does.

extension Optional.Publisher where Wrapped: Comparable {
    /// Publishes the value, if any: the minimum of at most one value.
    ///
    /// ![A marble diagram of min(), drawn from a run of it](marble-Optional-min)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any: the maximum of at most one value.
    ///
    /// ![A marble diagram of max(), drawn from a run of it](marble-Optional-max)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Publishes whether the value equals `output`; without a value, only finishes (as Apple's).
    ///
    /// ![A marble diagram of contains(_:), drawn from a run of it](marble-Optional-contains)
    ///
    /// The comparison is made at this call. Unlike the general `contains(_:)`, which publishes
    /// `false` for a stream that ends without elements, an empty `Optional.Publisher` publishes
    /// nothing here.
    ///
    /// - Parameter output: The element to compare with the value.
    /// - Returns: An `Optional.Publisher` of the answer, or an empty one without a value.
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of removeDuplicates(), drawn from a run of it](marble-Optional-removeDuplicates)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Publishes whether the value satisfies `predicate`; without a value, only finishes (as
    /// Apple's).
    ///
    /// ![A marble diagram of allSatisfy(_:), drawn from a run of it](marble-Optional-allSatisfy)
    ///
    /// `predicate` runs at most once, at this call. Unlike the general `allSatisfy(_:)`, which
    /// publishes `true` for a stream that ends without elements, an empty `Optional.Publisher`
    /// publishes nothing here.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the answer, or an empty one without a value.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes the value in an array, or an empty array.
    ///
    /// ![A marble diagram of collect(), drawn from a run of it](marble-Optional-collect)
    ///
    /// - Returns: An `Optional.Publisher` that always publishes an array: the value alone, or no
    ///   element.
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Publishes the non-`nil` result of `transform`, or only finishes.
    ///
    /// ![A marble diagram of compactMap(_:), drawn from a run of it](marble-Optional-compactMap)
    ///
    /// `transform` runs at most once, at this call.
    ///
    /// - Parameter transform: A closure that converts the value, or returns `nil` to publish
    ///   nothing.
    /// - Returns: An `Optional.Publisher` of the closure's result.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of min(by:), drawn from a run of it](marble-Optional-min-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for at most one value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of max(by:), drawn from a run of it](marble-Optional-max-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter areInIncreasingOrder: An ordering closure, unused for at most one value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes whether the value satisfies `predicate`; without a value, only finishes (as
    /// Apple's).
    ///
    /// ![A marble diagram of contains(where:), drawn from a run of it](marble-Optional-contains-where)
    ///
    /// `predicate` runs at most once, at this call. Unlike the general `contains(where:)`, which
    /// publishes `false` for a stream that ends without elements, an empty `Optional.Publisher`
    /// publishes nothing here.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the answer, or an empty one without a value.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes 1 with a value; without one, only finishes (as Apple's).
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Optional-count)
    ///
    /// This differs from the general `count()`, which publishes 0 for a stream that ends without
    /// elements:
    ///
    /// ```swift
    /// let cancellable = Optional<Int>.none.publisher
    ///     .count()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: finished (no 0 is published)
    /// ```
    ///
    /// - Returns: An `Optional.Publisher` of `1`, or an empty one without a value.
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Publishes the value unless it is dropped.
    ///
    /// ![A marble diagram of dropFirst(_:), drawn from a run of it](marble-Optional-dropFirst)
    ///
    /// - Precondition: `count` is not negative.
    /// - Parameter count: The number of values to drop; any count above 0 drops the value.
    /// - Returns: This publisher's value when `count` is 0, or an empty `Optional.Publisher`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        apiPrecondition(count >= 0, "dropFirst(_:): the count must not be negative")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// Publishes the value unless it satisfies `predicate`.
    ///
    /// ![A marble diagram of drop(while:), drawn from a run of it](marble-Optional-drop-while)
    ///
    /// `predicate` runs at most once, at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` to drop the value.
    /// - Returns: An `Optional.Publisher` of the value, or an empty one if it was dropped.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter { !predicate($0) }
    }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of first(), drawn from a run of it](marble-Optional-first)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func first() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of first(where:), drawn from a run of it](marble-Optional-first-where)
    ///
    /// `predicate` runs at most once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of last(), drawn from a run of it](marble-Optional-last)
    ///
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func last() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of last(where:), drawn from a run of it](marble-Optional-last-where)
    ///
    /// `predicate` runs at most once, at this call.
    ///
    /// - Parameter predicate: A closure that tests the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies `isIncluded`.
    ///
    /// ![A marble diagram of filter(_:), drawn from a run of it](marble-Optional-filter)
    ///
    /// `isIncluded` runs at most once, at this call.
    ///
    /// - Parameter isIncluded: A closure that returns `true` to publish the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Only finishes.
    ///
    /// ![A marble diagram of ignoreOutput(), drawn from a run of it](marble-Optional-ignoreOutput)
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value, if any.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-Optional-map)
    ///
    /// `transform` runs at most once, at this call, and the result is again an
    /// `Optional.Publisher`:
    ///
    /// ```swift
    /// let cancellable = Optional(20).publisher
    ///     .map { $0 + 1 }
    ///     .sink { print($0) }
    /// // Prints: 21
    /// ```
    ///
    /// - Parameter transform: A closure that converts the value.
    /// - Returns: An `Optional.Publisher` of the converted value, or an empty one without a value.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Publishes the value if `index` is 0.
    ///
    /// ![A marble diagram of output(at:), drawn from a run of it](marble-Optional-output-at)
    ///
    /// - Precondition: `index` is not negative.
    /// - Parameter index: The position of the element to publish; only 0 can have one.
    /// - Returns: This publisher's value when `index` is 0, or an empty `Optional.Publisher`.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        apiPrecondition(index >= 0, "output(at:): the index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the value if `range` contains 0.
    ///
    /// ![A marble diagram of output(in:), drawn from a run of it](marble-Optional-output-in)
    ///
    /// Unlike `Just`'s `output(in:)`, an empty range publishes nothing.
    ///
    /// - Precondition: `range` does not start below 0, and its upper bound is below
    ///   `Int.max - 1`, as Apple's checks; a range with no upper bound, such as `0...`, traps.
    /// - Parameter range: The positions of the elements to publish.
    /// - Returns: This publisher's value when `range` contains 0, or an empty
    ///   `Optional.Publisher`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let range = range.relative(to: 0..<Int.max)
        apiPrecondition(range.lowerBound >= 0, "output(in:): the range must not start below zero")
        // Apple's also traps on an upper bound of `Int.max - 1` or more (recorded by the
        // Apple-verified conformance suite).
        apiPrecondition(range.upperBound < .max - 1, "output(in:): the range's upper bound is too large")
        return Optional<Output>.Publisher(range.lowerBound == 0 && range.upperBound != 0 ? output : nil)
    }

    /// Publishes the value unless `maxLength` is 0.
    ///
    /// ![A marble diagram of prefix(_:), drawn from a run of it](marble-Optional-prefix)
    ///
    /// - Precondition: `maxLength` is not negative.
    /// - Parameter maxLength: The most elements to publish.
    /// - Returns: This publisher's value when `maxLength` is above 0, or an empty
    ///   `Optional.Publisher`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        apiPrecondition(maxLength >= 0, "prefix(_:): the maximum length must not be negative")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the value if it satisfies `predicate`.
    ///
    /// ![A marble diagram of prefix(while:), drawn from a run of it](marble-Optional-prefix-while)
    ///
    /// `predicate` runs at most once, at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` to keep the value.
    /// - Returns: An `Optional.Publisher` of the value if it passed, or an empty one.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes `nextPartialResult(initialResult, value)`; without a value, only finishes (as
    /// Apple's).
    ///
    /// ![A marble diagram of reduce(_:_:), drawn from a run of it](marble-Optional-reduce)
    ///
    /// The closure runs at most once, at this call. Unlike the general `reduce(_:_:)`, which
    /// publishes `initialResult` for a stream that ends without elements, an empty
    /// `Optional.Publisher` publishes nothing here.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: An `Optional.Publisher` of the combined result, or an empty one without a value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or only finishes without a value.
    ///
    /// ![A marble diagram of scan(_:_:), drawn from a run of it](marble-Optional-scan)
    ///
    /// The closure runs at most once, at this call.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the value.
    ///   - nextPartialResult: A closure that combines `initialResult` with the value.
    /// - Returns: An `Optional.Publisher` of the running result, or an empty one without a value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the value, if any.
    ///
    /// ![A marble diagram of removeDuplicates(by:), drawn from a run of it](marble-Optional-removeDuplicates-by)
    ///
    /// The closure is never called.
    ///
    /// - Parameter predicate: An equivalence closure, unused for at most one value.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any: it never fails.
    ///
    /// ![A marble diagram of replaceError(with:), drawn from a run of it](marble-Optional-replaceError-with)
    ///
    /// - Parameter output: A replacement for a failure; never used.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func replaceError(with output: Output) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, or `output` without one.
    ///
    /// ![A marble diagram of replaceEmpty(with:), drawn from a run of it](marble-Optional-replaceEmpty-with)
    ///
    /// The result is a `Just`, since there is always exactly one value to publish:
    ///
    /// ```swift
    /// let name: String? = nil
    /// let cancellable = name.publisher
    ///     .replaceEmpty(with: "anonymous")
    ///     .sink { print($0) }
    /// // Prints: anonymous
    /// ```
    ///
    /// - Parameter output: The element to publish when this publisher has no value.
    /// - Returns: A `Just` of the value, or of `output`.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

    /// Publishes the value, if any: it never fails, so there is nothing to retry.
    ///
    /// ![A marble diagram of retry(_:), drawn from a run of it](marble-Optional-retry)
    ///
    /// - Parameter times: The number of retries; unused.
    /// - Returns: This publisher, unchanged.
    @inlinable
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher { self }
}
