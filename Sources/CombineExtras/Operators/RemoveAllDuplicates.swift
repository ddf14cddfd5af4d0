// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publisher where Output: Hashable {
    /// Publishes each value only the first time it appears, however far apart its repeats are
    /// (`removeDuplicates()` drops only a repeat that directly follows).
    ///
    /// ![A marble diagram of removeAllDuplicates(), drawn from a run of it](marble-removeAllDuplicates)
    ///
    /// ```swift
    /// // upstream:              -a--b--a--c--b--|
    /// // removeAllDuplicates(): -a--b-----c-----|
    /// let cancellable = [1, 2, 1, 3, 2].publisher.removeAllDuplicates().sink { print($0) }
    /// // prints 1, 2, 3
    /// ```
    ///
    /// The values seen are remembered by the returned publisher, as CombineExt's operator does:
    /// every subscription to it shares them, so a second subscriber gets only values no
    /// subscriber has had. The memory grows with the number of distinct values.
    ///
    /// - Returns: A publisher of the values not published before, with the upstream's
    ///   completion; a dropped value is replaced by asking the upstream for one more.
    public func removeAllDuplicates() -> Publishers.Filter<Self> {
        let seen = SeenValues<Set<Output>>(Set())
        // The value's own hashing and `==` run under the lock (the set is changed in the same
        // step); they are the value type's, not a closure that could call back into the pipeline.
        return filter { value in seen.withLock { $0.insert(value).inserted } }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes each value only the first time it appears (values are compared with `==`).
    ///
    /// ![A marble diagram of removeAllDuplicates(), drawn from a run of it](marble-removeAllDuplicates)
    ///
    /// ```swift
    /// let cancellable = [1.0, 2.5, 1.0].publisher.removeAllDuplicates().sink { print($0) }
    /// // prints 1.0, 2.5
    /// ```
    ///
    /// Each value is compared with every distinct value before it (use the `Hashable` form when
    /// the values are hashable). The values seen are shared by every subscription to the
    /// returned publisher.
    ///
    /// - Returns: A publisher of the values not published before, with the upstream's
    ///   completion.
    public func removeAllDuplicates() -> Publishers.Filter<Self> {
        removeAllDuplicates(by: ==)
    }
}

extension Publisher {
    /// Publishes each value unless `comparator` finds it equal to a value published before.
    ///
    /// ![A marble diagram of removeAllDuplicates(by:), drawn from a run of it](marble-removeAllDuplicates-by)
    ///
    /// ```swift
    /// let names = ["Ada", "ada", "Grace"].publisher
    /// let cancellable = names.removeAllDuplicates { $0.lowercased() == $1.lowercased() }
    ///     .sink { print($0) }
    /// // prints Ada, Grace
    /// ```
    ///
    /// The values seen are shared by every subscription to the returned publisher.
    ///
    /// - Parameter comparator: Whether two values count as the same: called with a value
    ///   published before and the new one.
    /// - Returns: A publisher of the values `comparator` finds new, with the upstream's
    ///   completion.
    public func removeAllDuplicates(by comparator: @escaping (Output, Output) -> Bool) -> Publishers.Filter<Self> {
        let seen = SeenValues<[Output]>([])
        return filter { value in
            // The comparator is the caller's code: it runs on a copy, outside the lock.
            func isNew() -> Bool {
                let earlier = seen.withLock { $0 }
                return !earlier.contains { comparator($0, value) }
            }
            guard isNew() else { return false }
            seen.withLock { $0.append(value) }
            return true
        }
    }
}

/// The values a `removeAllDuplicates` publisher has let through, behind a lock: its
/// subscriptions share them and may call from different threads.
final class SeenValues<Values>: @unchecked Sendable {
    private let lock = Lock()
    private var values: Values

    init(_ values: Values) {
        self.values = values
    }

    func withLock<Result>(_ body: (inout Values) -> Result) -> Result {
        lock.withLock { body(&values) }
    }
}
