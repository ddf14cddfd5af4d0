// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Output == Bool {
    /// Negates each Boolean value.
    ///
    /// ![A marble diagram of toggle(), drawn from a run of it](marble-toggle)
    ///
    /// ```swift
    /// // upstream: -t--f--t--|
    /// // toggle:   -f--t--f--|
    /// ```
    ///
    /// - Returns: A publisher of the negated values, with the upstream's demand and completion.
    public func toggle() -> Publishers.Map<Self, Bool> {
        map(!)
    }
}
