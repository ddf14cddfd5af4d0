// `Publishers.Sequence`'s own operators: the elements are known, so each operator is
// applied to the sequence at once and returns a publisher of the result, as Combine does
// (`[1, 2].publisher.map { $0 * 2 }` is a `Publishers.Sequence<[Int], Never>`).

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element, if any.
    @inlinable
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Output>.Publisher
    {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element, if any.
    @inlinable
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Output>.Publisher
    {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element that satisfies `predicate`, if any.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Publishes whether every element satisfies `predicate`.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// Publishes whether every element satisfies the error-throwing `predicate`, or its error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try sequence.allSatisfy(predicate) }.publisher
    }

    /// Publishes all elements in one array.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(Array(sequence))
    }

    /// Publishes the non-`nil` results of `transform`.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Publishes whether any element satisfies `predicate`.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Publishes whether any element satisfies the error-throwing `predicate`, or its error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try sequence.contains(where: predicate) }.publisher
    }

    /// Publishes the elements after those that satisfy `predicate`.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Publishes the elements after the first `count`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements that satisfy `isIncluded`.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Only finishes.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed elements.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Publishes at most the first `maxLength` elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Publishes the elements up to the first that fails `predicate`.
    @inlinable
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure>
    {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// Publishes the result of combining all elements.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// Publishes the result of combining all elements, or the error the closure throws.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try sequence.reduce(initialResult, nextPartialResult) }.publisher
    }

    /// Publishes the elements with `nil` replaced by `output`.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Publishes every partial result of combining the elements.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Publishers.Sequence<[T], Failure>
    {
        var partial = initialResult
        return Publishers.Sequence<[T], Failure>(
            sequence: sequence.map { element in
                partial = nextPartialResult(partial, element)
                return partial
            })
    }

    /// Publishes the same elements with another failure type.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Publishes the elements without consecutive repeats.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var previous: Output?
        return Publishers.Sequence<[Output], Failure>(
            sequence: sequence.filter { element in
                defer { previous = element }
                return previous != element
            })
    }

    /// Publishes whether the sequence contains `output`.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element, if any.
    @inlinable
    public func min() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min())
    }

    /// Publishes the maximum element, if any.
    @inlinable
    public func max() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, if any.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first)
    }

    /// Publishes the element at `index`, if the collection has one there.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }

    /// Publishes the elements in `range`.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element, if any.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// Publishes the last element that satisfies `predicate`, if any.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the element at `index`, if the collection has one there.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// Publishes the number of elements.
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the elements in `range`.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }

    /// Publishes the number of elements.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes `elements`, then this sequence.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Publishes `elements`, then this sequence.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        // As Apple's: one allocation sized from both, then the two appended.
        var combined = Elements()
        combined.reserveCapacity(sequence.count + elements.underestimatedCount)
        combined.append(contentsOf: elements)
        combined.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes the elements of `publisher`, then this sequence.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        // As Apple's: this sequence is appended to a copy of the other.
        var combined = publisher.sequence
        combined.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes this sequence, then `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Publishes this sequence, then `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var combined = sequence
        combined.append(contentsOf: elements)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes this sequence, then the elements of `publisher`.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
