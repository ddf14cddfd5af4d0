// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Output: Collection {
    /// Keeps, in each collection the publisher publishes, only the elements that satisfy a
    /// predicate.
    ///
    /// ![A marble diagram of filterMany(_:), drawn from a run of it](marble-filterMany)
    ///
    /// ```swift
    /// // upstream:   -'[1,2,3,4]'--'[5]'--|   (arrays, quoted as names)
    /// // filterMany: -'[2,4]'    --'[]' --|   with isIncluded: isMultiple(of: 2)
    /// ```
    ///
    /// Every upstream value gives one array, possibly empty (the collection is filtered, not
    /// the stream). Demand, completion and failure are the upstream's.
    ///
    /// - Parameter isIncluded: Whether to keep an element.
    /// - Returns: A publisher of arrays of the elements kept.
    public func filterMany(_ isIncluded: @escaping (Output.Element) -> Bool) -> AnyPublisher<[Output.Element], Failure>
    {
        map { $0.filter(isIncluded) }.eraseToAnyPublisher()
    }
}
