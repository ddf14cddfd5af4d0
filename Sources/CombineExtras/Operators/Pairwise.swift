// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Publishes each value paired with the value before it: nothing for the first value, then
    /// `(previous, current)` for every value after it.
    ///
    /// ![A marble diagram of pairwise(), drawn from a run of it](marble-pairwise)
    ///
    /// ```swift
    /// // upstream: -1-2-3-|
    /// // pairwise: ---a-b-|     a = (1, 2), b = (2, 3)
    /// ```
    ///
    /// It is `nwise(2)` as tuples, with its rules for demand and completion.
    ///
    /// - Returns: A publisher of `(previous, current)` pairs.
    public func pairwise() -> AnyPublisher<(Output, Output), Failure> {
        nwise(2)
            .map { ($0[0], $0[1]) }
            .eraseToAnyPublisher()
    }
}
