// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Each of the two publishers `partition(_:)` returns (the name CombineExt gives them).
    public typealias Partition = AnyPublisher<Output, Failure>

    /// Splits the values into two publishers: those that satisfy a predicate, and those that do
    /// not.
    ///
    /// ![A marble diagram of partition(_:), drawn from a run of it](marble-partition)
    ///
    /// ```swift
    /// // upstream:   -1-2-3-4-|
    /// // matches:    ---2---4-|     with predicate: isMultiple(of: 2)
    /// // nonMatches: -1---3---|
    /// let (evens, odds) = numbers.partition { $0.isMultiple(of: 2) }
    /// ```
    ///
    /// The two publishers share one subscription to the upstream (through `share()`, as
    /// CombineExt does), and the predicate runs once per value. As with `share()`, the
    /// upstream is subscribed when the first of the two is, and values published before the
    /// other side subscribes do not reach it: subscribe both before a subject sends. A
    /// synchronous upstream such as `[1, 2].publisher` runs to its end as soon as the first
    /// side subscribes. Each side gets the upstream's completion; the upstream is cancelled
    /// once both sides have cancelled. Each side's values wait for nothing: a side without
    /// demand misses them, as a subscriber of a subject does.
    ///
    /// - Parameter predicate: Whether a value goes to `matches`.
    /// - Returns: The values that satisfy the predicate, and those that do not.
    public func partition(
        _ predicate: @escaping (Output) -> Bool
    ) -> (matches: Partition, nonMatches: Partition) {
        let source = map { (value: $0, matches: predicate($0)) }.share()
        let matches = source.compactMap { $0.matches ? $0.value : nil }.eraseToAnyPublisher()
        let nonMatches = source.compactMap { $0.matches ? nil : $0.value }.eraseToAnyPublisher()
        return (matches, nonMatches)
    }
}
