// SPDX-License-Identifier: Apache-2.0
// `Publishers.Sequence`'s own operators: the elements are known, so each operator is
// applied to the sequence at once and returns a publisher of the result, as Combine does
// (`[1, 2].publisher.map { $0 * 2 }` is a `Publishers.Sequence<[Int], Never>`).

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element, if any.
    ///
    /// ![A marble diagram of min(by:), drawn from a run of it](marble-Sequence-min-by)
    ///
    /// The sequence is searched at this call.
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second.
    /// - Returns: An `Optional.Publisher` of the smallest element, or an empty one for an empty
    ///   sequence.
    @inlinable
    public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Output>.Publisher
    {
        Optional<Output>.Publisher(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element, if any.
    ///
    /// ![A marble diagram of max(by:), drawn from a run of it](marble-Sequence-max-by)
    ///
    /// The sequence is searched at this call.
    ///
    /// - Parameter areInIncreasingOrder: A closure that returns `true` when its first argument
    ///   should be ordered before its second.
    /// - Returns: An `Optional.Publisher` of the largest element, or an empty one for an empty
    ///   sequence.
    @inlinable
    public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool) -> Optional<Output>.Publisher
    {
        Optional<Output>.Publisher(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element that satisfies `predicate`, if any.
    ///
    /// ![A marble diagram of first(where:), drawn from a run of it](marble-Sequence-first-where)
    ///
    /// The sequence is searched at this call, up to the first match.
    ///
    /// - Parameter predicate: A closure that tests an element.
    /// - Returns: An `Optional.Publisher` of the first match, or an empty one.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence {
    /// Publishes whether every element satisfies `predicate`.
    ///
    /// ![A marble diagram of allSatisfy(_:), drawn from a run of it](marble-Sequence-allSatisfy)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameter predicate: A closure that tests an element.
    /// - Returns: A `Result.Publisher` of the answer; `true` for an empty sequence.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
    }

    /// Publishes whether every element satisfies the error-throwing `predicate`, or its error.
    ///
    /// ![A marble diagram of tryAllSatisfy(_:), drawn from a run of it](marble-Sequence-tryAllSatisfy)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameter predicate: An error-throwing closure that tests an element.
    /// - Returns: A `Result.Publisher` of the answer, or of the error the closure threw.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try sequence.allSatisfy(predicate) }.publisher
    }

    /// Publishes all elements in one array.
    ///
    /// ![A marble diagram of collect(), drawn from a run of it](marble-Sequence-collect)
    ///
    /// The sequence is copied into the array at this call.
    ///
    /// - Returns: A `Result.Publisher` of an array of every element.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        Result<[Output], Failure>.Publisher(Array(sequence))
    }

    /// Publishes the non-`nil` results of `transform`.
    ///
    /// ![A marble diagram of compactMap(_:), drawn from a run of it](marble-Sequence-compactMap)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameter transform: A closure that converts an element, or returns `nil` to skip it.
    /// - Returns: A `Publishers.Sequence` over an array of the non-`nil` results.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }

    /// Publishes whether any element satisfies `predicate`.
    ///
    /// ![A marble diagram of contains(where:), drawn from a run of it](marble-Sequence-contains-where)
    ///
    /// The sequence is searched at this call, up to the first match.
    ///
    /// - Parameter predicate: A closure that tests an element.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
    }

    /// Publishes whether any element satisfies the error-throwing `predicate`, or its error.
    ///
    /// ![A marble diagram of tryContains(where:), drawn from a run of it](marble-Sequence-tryContains-where)
    ///
    /// The sequence is searched at this call, up to the first match.
    ///
    /// - Parameter predicate: An error-throwing closure that tests an element.
    /// - Returns: A `Result.Publisher` of the answer, or of the error the closure threw.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        Result { try sequence.contains(where: predicate) }.publisher
    }

    /// Publishes the elements after those that satisfy `predicate`.
    ///
    /// ![A marble diagram of drop(while:), drawn from a run of it](marble-Sequence-drop-while)
    ///
    /// The leading elements are skipped at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` for each leading element to drop.
    /// - Returns: A `Publishers.Sequence` over the rest of the sequence.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        Publishers.Sequence<DropWhileSequence<Elements>, Failure>(sequence: sequence.drop(while: predicate))
    }

    /// Publishes the elements after the first `count`.
    ///
    /// ![A marble diagram of dropFirst(_:), drawn from a run of it](marble-Sequence-dropFirst)
    ///
    /// - Parameter count: The number of leading elements to leave out; 1 unless given.
    /// - Returns: A `Publishers.Sequence` over the remaining elements.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
    }

    /// Publishes the elements that satisfy `isIncluded`.
    ///
    /// ![A marble diagram of filter(_:), drawn from a run of it](marble-Sequence-filter)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameter isIncluded: A closure that returns `true` to keep an element.
    /// - Returns: A `Publishers.Sequence` over an array of the kept elements.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Only finishes.
    ///
    /// ![A marble diagram of ignoreOutput(), drawn from a run of it](marble-Sequence-ignoreOutput)
    ///
    /// - Returns: An `Empty` publisher that finishes at once.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// Publishes the transformed elements.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-Sequence-map)
    ///
    /// Unlike the general `map(_:)`, the closure runs over every element at this call, before
    /// anyone subscribes, and the result is again a `Publishers.Sequence`, over an array. So do not
    /// use it on an endless sequence:
    ///
    /// ```swift
    /// let squares: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * $0 }
    /// let cancellable = squares.sink { print($0) }
    /// // Prints: 1, 4, 9
    /// ```
    ///
    /// - Parameter transform: A closure that converts an element.
    /// - Returns: A `Publishers.Sequence` over an array of the converted elements.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Publishes at most the first `maxLength` elements.
    ///
    /// ![A marble diagram of prefix(_:), drawn from a run of it](marble-Sequence-prefix)
    ///
    /// - Parameter maxLength: The most elements to publish.
    /// - Returns: A `Publishers.Sequence` over the leading elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
    }

    /// Publishes the elements up to the first that fails `predicate`.
    ///
    /// ![A marble diagram of prefix(while:), drawn from a run of it](marble-Sequence-prefix-while)
    ///
    /// The leading elements are collected into an array at this call.
    ///
    /// - Parameter predicate: A closure that returns `true` for each leading element to keep.
    /// - Returns: A `Publishers.Sequence` over an array of the leading elements that passed.
    @inlinable
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure>
    {
        Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// Publishes the result of combining all elements.
    ///
    /// ![A marble diagram of reduce(_:_:), drawn from a run of it](marble-Sequence-reduce)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: A closure that combines the result so far with the next element.
    /// - Returns: A `Result.Publisher` of the final result; `initialResult` for an empty sequence.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Result<T, Failure>.Publisher
    {
        Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
    }

    /// Publishes the result of combining all elements, or the error the closure throws.
    ///
    /// ![A marble diagram of tryReduce(_:_:), drawn from a run of it](marble-Sequence-tryReduce)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameters:
    ///   - initialResult: The starting value of the accumulation.
    ///   - nextPartialResult: An error-throwing closure that combines the result so far with
    ///     the next element.
    /// - Returns: A `Result.Publisher` of the final result, or of the error the closure threw.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        Result { try sequence.reduce(initialResult, nextPartialResult) }.publisher
    }

    /// Publishes the elements with `nil` replaced by `output`.
    ///
    /// ![A marble diagram of replaceNil(with:), drawn from a run of it](marble-Sequence-replaceNil-with)
    ///
    /// The replacement is made over the whole sequence at this call.
    ///
    /// - Parameter output: The element to publish in place of each `nil`.
    /// - Returns: A `Publishers.Sequence` over an array of the elements.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.map { $0 ?? output })
    }

    /// Publishes every partial result of combining the elements.
    ///
    /// ![A marble diagram of scan(_:_:), drawn from a run of it](marble-Sequence-scan)
    ///
    /// The closure runs over the elements at this call, before anyone subscribes.
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the first element; it is not published
    ///     itself.
    ///   - nextPartialResult: A closure that combines the running result with the next element.
    /// - Returns: A `Publishers.Sequence` over an array of the running results.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var partial = initialResult
        return Publishers.Sequence<[T], Failure>(
            sequence: sequence.map { element in
                partial = nextPartialResult(partial, element)
                return partial
            })
    }

    /// Publishes the same elements with another failure type.
    ///
    /// ![A marble diagram of setFailureType(to:), drawn from a run of it](marble-Sequence-setFailureType-to)
    ///
    /// - Parameter error: The failure type to declare, for example `URLError.self`.
    /// - Returns: A `Publishers.Sequence` over the same sequence with the failure type `E`.
    @inlinable
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        Publishers.Sequence<Elements, E>(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Publishes the elements without consecutive repeats.
    ///
    /// ![A marble diagram of removeDuplicates(), drawn from a run of it](marble-Sequence-removeDuplicates)
    ///
    /// The repeats are removed over the whole sequence at this call.
    ///
    /// - Returns: A `Publishers.Sequence` over an array of the elements that differ from the one
    ///   before them.
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
    ///
    /// ![A marble diagram of contains(_:), drawn from a run of it](marble-Sequence-contains)
    ///
    /// The sequence is searched at this call.
    ///
    /// - Parameter output: The element to look for.
    /// - Returns: A `Result.Publisher` of the answer.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        Result<Bool, Failure>.Publisher(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element, if any.
    ///
    /// ![A marble diagram of min(), drawn from a run of it](marble-Sequence-min)
    ///
    /// The sequence is searched at this call.
    ///
    /// - Returns: An `Optional.Publisher` of the smallest element, or an empty one for an empty
    ///   sequence.
    @inlinable
    public func min() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.min())
    }

    /// Publishes the maximum element, if any.
    ///
    /// ![A marble diagram of max(), drawn from a run of it](marble-Sequence-max)
    ///
    /// The sequence is searched at this call.
    ///
    /// - Returns: An `Optional.Publisher` of the largest element, or an empty one for an empty
    ///   sequence.
    @inlinable
    public func max() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, if any.
    ///
    /// ![A marble diagram of first(), drawn from a run of it](marble-Sequence-first)
    ///
    /// - Returns: An `Optional.Publisher` of the first element, or an empty one for an empty
    ///   collection.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.first)
    }

    /// Publishes the element at `index`, if the collection has one there.
    ///
    /// ![A marble diagram of output(at:), drawn from a run of it](marble-Sequence-output-at)
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of that element, or an empty one if `index` is not a
    ///   valid index of the collection.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Sequence-count)
    ///
    /// - Returns: A `Result.Publisher` of the collection's `count`.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }

    /// Publishes the elements in `range`.
    ///
    /// ![A marble diagram of output(in:), drawn from a run of it](marble-Sequence-output-in)
    ///
    /// - Precondition: `range` lies within the collection's indices: unlike the general
    ///   `output(in:)`, which publishes whatever elements there are, a range past the end traps.
    /// - Parameter range: The indices of the elements to publish.
    /// - Returns: A `Publishers.Sequence` over an array of those elements.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Publishes the last element, if any.
    ///
    /// ![A marble diagram of last(), drawn from a run of it](marble-Sequence-last)
    ///
    /// - Returns: An `Optional.Publisher` of the last element, or an empty one for an empty
    ///   collection.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// Publishes the last element that satisfies `predicate`, if any.
    ///
    /// ![A marble diagram of last(where:), drawn from a run of it](marble-Sequence-last-where)
    ///
    /// The collection is searched from the end at this call.
    ///
    /// - Parameter predicate: A closure that tests an element.
    /// - Returns: An `Optional.Publisher` of the last match, or an empty one.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the element at `index`, if the collection has one there.
    ///
    /// ![A marble diagram of output(at:), drawn from a run of it](marble-Sequence-output-at-2)
    ///
    /// - Parameter index: The index of the element to publish.
    /// - Returns: An `Optional.Publisher` of that element, or an empty one if `index` is not a
    ///   valid index of the collection.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// Publishes the number of elements.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Sequence-count-2)
    ///
    /// With a random-access collection and no possible failure, the count is published by a
    /// `Just`.
    ///
    /// - Returns: A `Just` of the collection's `count`.
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// Publishes the elements in `range`.
    ///
    /// ![A marble diagram of output(in:), drawn from a run of it](marble-Sequence-output-in-2)
    ///
    /// - Precondition: `range` lies within the collection's indices: unlike the general
    ///   `output(in:)`, which publishes whatever elements there are, a range past the end traps.
    /// - Parameter range: The indices of the elements to publish.
    /// - Returns: A `Publishers.Sequence` over an array of those elements.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: Array(sequence[range]))
    }

    /// Publishes the number of elements.
    ///
    /// ![A marble diagram of count(), drawn from a run of it](marble-Sequence-count-3)
    ///
    /// - Returns: A `Result.Publisher` of the collection's `count`.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        Result<Int, Failure>.Publisher(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// Publishes `elements`, then this sequence.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-Sequence-prepend)
    ///
    /// - Parameter elements: The elements to publish first.
    /// - Returns: A `Publishers.Sequence` over one collection of `elements` followed by this one.
    @inlinable
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// Publishes `elements`, then this sequence.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-Sequence-prepend-2)
    ///
    /// - Parameter elements: A sequence whose elements are published first.
    /// - Returns: A `Publishers.Sequence` over one collection of `elements` followed by this one.
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
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-Sequence-prepend-3)
    ///
    /// - Parameter publisher: A sequence publisher whose elements are published first.
    /// - Returns: A `Publishers.Sequence` over one collection of its elements followed by this
    ///   one's.
    @inlinable
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        // As Apple's: this sequence is appended to a copy of the other.
        var combined = publisher.sequence
        combined.append(contentsOf: sequence)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes this sequence, then `elements`.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-Sequence-append)
    ///
    /// - Parameter elements: The elements to publish last.
    /// - Returns: A `Publishers.Sequence` over one collection of this one's elements followed by
    ///   `elements`.
    @inlinable
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// Publishes this sequence, then `elements`.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-Sequence-append-2)
    ///
    /// - Parameter elements: A sequence whose elements are published last.
    /// - Returns: A `Publishers.Sequence` over one collection of this one's elements followed by
    ///   `elements`.
    @inlinable
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var combined = sequence
        combined.append(contentsOf: elements)
        return Publishers.Sequence(sequence: combined)
    }

    /// Publishes this sequence, then the elements of `publisher`.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-Sequence-append-3)
    ///
    /// - Parameter publisher: A sequence publisher whose elements are published last.
    /// - Returns: A `Publishers.Sequence` over one collection of this one's elements followed by
    ///   its elements.
    @inlinable
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
