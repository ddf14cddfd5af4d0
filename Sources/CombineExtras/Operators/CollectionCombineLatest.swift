// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Combines the latest values of this publisher and `others`, as an array (this
    /// publisher's value first), each time one of them publishes once all have; see
    /// ``Swift/Collection/combineLatest()`` for demand and completion.
    ///
    /// ![A marble diagram of combineLatest(with:), drawn from a run of it](marble-combineLatest-with)
    ///
    /// ```swift
    /// // a:                        -1-----3------|
    /// // b:                        ---x------y------|
    /// // a.combineLatest(with: b): ---p---q--r------|    p = [1, x], q = [3, x], r = [3, y]
    /// a.combineLatest(with: [b, c])
    /// ```
    ///
    /// - Parameter others: The publishers to combine with, in the order of the arrays.
    /// - Returns: A publisher of arrays of the latest value of each publisher.
    public func combineLatest<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        erased(with: others).combineLatest()
    }

    /// Combines the latest values of this publisher and `others`, as
    /// ``combineLatest(with:)-(Others)`` does for a collection.
    ///
    /// ![A marble diagram of combineLatest(with:), drawn from a run of it](marble-combineLatest-with)
    ///
    /// ```swift
    /// // a:                           -1-----2----|
    /// // b:                           --x---------|
    /// // c:                           ---p----q---|
    /// // a.combineLatest(with: b, c): ---s---tu---|    s = [1, x, p], t = [2, x, p], u = [2, x, q]
    /// ```
    ///
    /// Nothing is published until every publisher has published once; demand and completion
    /// follow ``Swift/Collection/combineLatest()``.
    ///
    /// ```swift
    /// let a = PassthroughSubject<Int, Never>()
    /// let b = PassthroughSubject<Int, Never>()
    /// let c = PassthroughSubject<Int, Never>()
    /// let cancellable = a.combineLatest(with: b, c).sink { print($0) }
    /// a.send(1)
    /// b.send(2)
    /// c.send(3)     // all have published: [1, 2, 3]
    /// a.send(4)
    /// // Prints: [1, 2, 3], [4, 2, 3]
    /// ```
    ///
    /// - Parameter others: The publishers to combine with, in the order of the arrays (after
    ///   this publisher's value).
    /// - Returns: A type-erased publisher of arrays of the latest value of each publisher.
    public func combineLatest<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        combineLatest(with: others)
    }
}

extension Collection where Element: Publisher {
    /// Combines the latest values of the publishers of the collection: once every publisher has
    /// published, an array of their latest values each time one of them publishes —
    /// `combineLatest` for any number of publishers.
    ///
    /// ![A marble diagram of combineLatest(), drawn from a run of it](marble-combineLatest-collection)
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
