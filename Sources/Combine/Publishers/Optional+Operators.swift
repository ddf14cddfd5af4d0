// `Optional.Publisher`'s own operators: the value (or its absence) is known, so each
// operator computes its result at once, as Combine does.

extension Optional.Publisher where Wrapped: Comparable {
    /// Publishes the value, if any: the minimum of at most one value.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any: the maximum of at most one value.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Publishes whether the value equals `output`; without a value, only finishes (as Apple's).
    @inlinable
    public func contains(_ output: Output) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(self.output.map { $0 == output })
    }

    /// Publishes the value, if any.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher { self }
}

extension Optional.Publisher {
    /// Publishes whether the value satisfies `predicate`; without a value, only finishes (as
    /// Apple's).
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes the value in an array, or an empty array.
    @inlinable
    public func collect() -> Optional<[Output]>.Publisher {
        Optional<[Output]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Publishes the non-`nil` result of `transform`, or only finishes.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.flatMap(transform))
    }

    /// Publishes the value, if any.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes whether the value satisfies `predicate`; without a value, only finishes (as
    /// Apple's).
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher {
        Optional<Bool>.Publisher(output.map(predicate))
    }

    /// Publishes 1 with a value; without one, only finishes (as Apple's).
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        Optional<Int>.Publisher(output.map { _ in 1 })
    }

    /// Publishes the value unless it is dropped.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:): the count must not be negative")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }

    /// Publishes the value unless it satisfies `predicate`.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter { !predicate($0) }
    }

    /// Publishes the value, if any.
    @inlinable
    public func first() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies `predicate`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value, if any.
    @inlinable
    public func last() -> Optional<Output>.Publisher { self }

    /// Publishes the value if it satisfies `predicate`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { filter(predicate) }

    /// Publishes the value if it satisfies `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(output.flatMap { isIncluded($0) ? $0 : nil })
    }

    /// Only finishes.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> { Empty() }

    /// Publishes the transformed value, if any.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map(transform))
    }

    /// Publishes the value if `index` is 0.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:): the index must not be negative")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the value if `range` contains 0.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let range = range.relative(to: 0..<Int.max)
        precondition(range.lowerBound >= 0, "output(in:): the range must not start below zero")
        // Apple's also traps on an upper bound of `Int.max - 1` or more (recorded by the
        // Apple-verified conformance suite).
        precondition(range.upperBound < .max - 1, "output(in:): the range's upper bound is too large")
        return Optional<Output>.Publisher(range.lowerBound == 0 && range.upperBound != 0 ? output : nil)
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

    /// Publishes `nextPartialResult(initialResult, value)`; without a value, only finishes (as
    /// Apple's).
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes `nextPartialResult(initialResult, value)`, or only finishes without a value.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        Optional<T>.Publisher(output.map { nextPartialResult(initialResult, $0) })
    }

    /// Publishes the value, if any.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, if any: it never fails.
    @inlinable
    public func replaceError(with output: Output) -> Optional<Wrapped>.Publisher { self }

    /// Publishes the value, or `output` without one.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

    /// Publishes the value, if any: it never fails, so there is nothing to retry.
    @inlinable
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher { self }
}
