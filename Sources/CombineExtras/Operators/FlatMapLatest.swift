// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Maps each value to a publisher and publishes the values of the latest one only: a new
    /// value cancels the inner publisher of the previous one.
    ///
    /// ![A marble diagram of flatMapLatest(_:), drawn from a run of it](marble-flatMapLatest)
    ///
    /// ```swift
    /// // upstream:      -a-------b-----|
    /// // inner for a:    --1--2----3            (cancelled when b arrives)
    /// // inner for b:            --4--|
    /// // flatMapLatest: ---1--2----4---|
    /// query.flatMapLatest { text in search(text) }   // only the latest search is listened to
    /// ```
    ///
    /// It is `map(transform).switchToLatest()`, with that operator's rules: the subscriber's
    /// demand goes to the current inner publisher (demand it did not use carries over to the
    /// next); it finishes once the upstream and the last inner publisher have finished; a
    /// failure of either fails it and cancels the other.
    ///
    /// - Parameter transform: Makes the publisher whose values to publish for an upstream value.
    /// - Returns: A publisher of the values of the latest inner publisher.
    public func flatMapLatest<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.SwitchToLatest<P, Publishers.Map<Self, P>> where P.Failure == Failure {
        map(transform).switchToLatest()
    }
}
