// SPDX-License-Identifier: Apache-2.0
import Combine

extension Collection where Element: Publisher {
    /// Merges the publishers of the collection: their values as they come, in one stream.
    ///
    /// ![A marble diagram of merge(), drawn from a run of it](marble-merge-collection)
    ///
    /// ```swift
    /// // a:       -1-----3--|
    /// // b:       ---2-------4-|
    /// // merge(): -1-2---3---4-|
    /// [a, b, c].merge()
    /// ```
    ///
    /// It is Apple's `Publishers.MergeMany` — one subscription over all the publishers,
    /// whatever their number — with its rules: it finishes when every publisher has finished,
    /// and fails, cancelling the others, as soon as one fails. An empty collection finishes at
    /// once.
    ///
    /// - Returns: A publisher of every publisher's values.
    public func merge() -> AnyPublisher<Element.Output, Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return Publishers.MergeMany(self).eraseToAnyPublisher()
    }
}
