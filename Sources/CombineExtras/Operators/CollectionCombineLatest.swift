import Combine

extension Collection where Element: Publisher {
    /// Combines the latest values of the publishers of the collection: once every publisher has
    /// published, an array of their latest values each time one of them publishes —
    /// `combineLatest` for any number of publishers.
    ///
    /// ```swift
    /// // a:               -1-----3------|
    /// // b:               ---x------y------|
    /// // combineLatest(): ---p---q--r------|      p = [1, x], q = [3, x], r = [3, y]
    /// [a, b, c].combineLatest()
    /// ```
    ///
    /// One subscription serves all the publishers, whatever their number (no chain of nested
    /// `combineLatest`s); each array is built once, with the values in the collection's order.
    ///
    /// - Demand, as Apple's `CombineLatest`: each request of the subscriber goes to every
    ///   publisher, and so does demand the subscriber returns from `receive(_:)`. Arrays made
    ///   while the subscriber has no demand wait for it, in order; it never receives more than
    ///   it asked for.
    /// - It finishes when every publisher has finished, and only then, as Apple's
    ///   `CombineLatest` does (CombineExt builds this operator from it): a publisher that
    ///   finishes without having published leaves the others running — no array can be made
    ///   any more, and the result finishes when the last of them does (RxJS finishes at once
    ///   there; Combine does not). It fails, cancelling the others, as soon as one fails
    ///   (arrays not yet delivered are dropped).
    ///
    /// ```swift
    /// // a:               -1---|
    /// // b:               ---|                  (finishes without a value)
    /// // c:               --x-----y---|
    /// // combineLatest(): ------------|         (no array; finished with the last one)
    /// ```
    /// - An empty collection finishes at once, without a value.
    ///
    /// - Returns: A publisher of arrays of the latest value of each publisher.
    public func combineLatest() -> AnyPublisher<[Element.Output], Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return CombiningMany(upstreams: Array(self), rule: .combineLatest).eraseToAnyPublisher()
    }
}
