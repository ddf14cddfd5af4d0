// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Output: Collection {
    /// Maps every element of each collection the publisher publishes.
    ///
    /// ![A marble diagram of mapMany(_:), drawn from a run of it](marble-mapMany)
    ///
    /// ```swift
    /// // upstream: -'[1,2]'--'[3]'--|     (arrays, quoted as names)
    /// // mapMany:  -'[a,b]'--'[c]'--|     with transform 1 → a, 2 → b, 3 → c
    /// ids.mapMany { User(id: $0) }   // [Int] → [User]
    /// ```
    ///
    /// A `map` over the collection: one value out for each value in, with the upstream's
    /// demand, completion and failure.
    ///
    /// - Parameter transform: Maps one element.
    /// - Returns: A publisher of arrays of the mapped elements.
    public func mapMany<Result>(_ transform: @escaping (Output.Element) -> Result) -> Publishers.Map<Self, [Result]> {
        map { $0.map(transform) }
    }
}
