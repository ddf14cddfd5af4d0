// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Output: EventConvertible, Failure == Never {
    /// The values of a materialized publisher, without its failure and finish events.
    ///
    /// ![A marble diagram of values(), drawn from a run of it](marble-values)
    ///
    /// ```swift
    /// // upstream: --'v1'--'v2'--[f|]   'v1' = .value(1), 'v2' = .value(2), f = .failure(e)
    /// // values(): --1   --2   --|
    /// ```
    ///
    /// - Returns: A publisher of the `.value` events' values.
    public func values() -> AnyPublisher<Output.Output, Never> {
        compactMap {
            guard case .value(let value) = $0.event else { return nil }
            return value
        }
        .eraseToAnyPublisher()
    }

    /// The failure of a materialized publisher, if it has one, without its values.
    ///
    /// ![A marble diagram of failures(), drawn from a run of it](marble-failures)
    ///
    /// ```swift
    /// // upstream:   --'v1'--'v2'--[f|]   'v1' = .value(1), 'v2' = .value(2), f = .failure(e)
    /// // failures(): ---   ---   --[e|]
    /// ```
    ///
    /// - Returns: A publisher of the `.failure` events' errors.
    public func failures() -> AnyPublisher<Output.Failure, Never> {
        compactMap {
            guard case .failure(let failure) = $0.event else { return nil }
            return failure
        }
        .eraseToAnyPublisher()
    }
}
