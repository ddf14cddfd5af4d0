// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Zips this publisher with `others`: the first values of all of them as one array (this
    /// publisher's first), then the second values, and so on; see ``Swift/Collection/zip()``
    /// for demand and completion.
    ///
    /// ![A marble diagram of zip(with:), drawn from a run of it](marble-zip-with)
    ///
    /// ```swift
    /// // a:              -1-----3----|
    /// // b:              ---x------y----|
    /// // a.zip(with: b): ---p------q-|       p = [1, x], q = [3, y]
    /// a.zip(with: [b, c])
    /// ```
    ///
    /// - Parameter others: The publishers to zip with, in the order of the arrays.
    /// - Returns: A publisher of arrays with one value from each publisher.
    public func zip<Others: Collection>(with others: Others) -> AnyPublisher<[Output], Failure>
    where Others.Element: Publisher, Others.Element.Output == Output, Others.Element.Failure == Failure {
        erased(with: others).zip()
    }

    /// Zips this publisher with `others`, as ``zip(with:)-(Others)`` does for a collection.
    ///
    /// ![A marble diagram of zip(with:), drawn from a run of it](marble-zip-with)
    ///
    /// ```swift
    /// // a:                 -1---2---|
    /// // b:                 --x---y--|
    /// // c:                 ---p---q-|
    /// // a.zip(with: b, c): ---s---t-|     s = [1, x, p], t = [2, y, q]
    /// ```
    ///
    /// Demand and completion follow ``Swift/Collection/zip()``: the result finishes as soon
    /// as a finished publisher has no value left to pair.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .zip(with: [10, 20].publisher, [100, 200, 300].publisher)
    ///     .sink { print($0) }
    /// // Prints: [1, 10, 100], [2, 20, 200]
    /// ```
    ///
    /// - Parameter others: The publishers to zip with, in the order of the arrays (after this
    ///   publisher's value).
    /// - Returns: A type-erased publisher of arrays with one value from each publisher.
    public func zip<Other: Publisher>(with others: Other...) -> AnyPublisher<[Output], Failure>
    where Other.Output == Output, Other.Failure == Failure {
        zip(with: others)
    }
}

extension Collection where Element: Publisher {
    /// Zips the publishers of the collection: the first values of all of them as one array,
    /// then the second values, and so on — `zip` for any number of publishers.
    ///
    /// ![A marble diagram of zip(), drawn from a run of it](marble-zip-collection)
    ///
    /// ```swift
    /// // a:     -1-----3----|
    /// // b:     ---x------y----|
    /// // zip(): ---p------q-|       p = [1, x], q = [3, y]
    /// [a, b, c].zip()
    /// ```
    ///
    /// One subscription serves all the publishers, whatever their number (no chain of nested
    /// zips); each array is built once, with the values in the collection's order.
    ///
    /// - Demand, as Apple's `Zip`: each request of the subscriber goes to every publisher, and
    ///   so does demand the subscriber returns from `receive(_:)`. Arrays never exceed the
    ///   subscriber's demand.
    /// - It finishes, cancelling the others, as soon as a publisher has finished and none of
    ///   its values waits to be zipped (no further array can be completed) — Apple's `Zip`
    ///   rule, which CombineExt's collection `zip` inherits; arrays already made are delivered
    ///   first. It fails as soon as one fails, cancelling every publisher (the failed one too, as
    ///   Apple's `Zip` does; arrays not yet delivered are dropped).
    /// - An empty collection finishes at once, without a value.
    ///
    /// - Returns: A publisher of arrays with one value from each publisher.
    public func zip() -> AnyPublisher<[Element.Output], Element.Failure> {
        guard !isEmpty else { return Empty().eraseToAnyPublisher() }
        return CombiningMany(upstreams: Array(self), rule: .zip).eraseToAnyPublisher()
    }
}
