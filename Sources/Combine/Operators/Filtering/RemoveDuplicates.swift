// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that skips each upstream value that `predicate` finds equal to the last value
    /// it published.
    ///
    /// ```
    /// upstream:           --1--1--2--2--1--|
    /// removeDuplicates(): --1-----2-----1--|
    /// ```
    ///
    /// A repeated element is replaced by asking upstream for one more.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are deduplicated.
        public let upstream: Upstream

        /// Called with the last published value and a new one; `true` marks the new one as a
        /// duplicate to skip.
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool

        /// Makes a publisher that publishes the values of `upstream` except those `predicate`
        /// marks as duplicates of the last one published.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<DuplicateStepper<Output, Failure>, Failure, S>(
                    DuplicateStepper { .success(predicate($0, $1)) }, downstream: subscriber,
                    name: "RemoveDuplicates", edges: .strict, reflection: .downstream(state: "last"),
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that skips each upstream value that the throwing `predicate` finds equal to
    /// the last value it published, and fails with the error `predicate` throws.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// Any error: one thrown by `predicate`, or the upstream's own failure.
        public typealias Failure = any Error

        /// The publisher whose values are deduplicated.
        public let upstream: Upstream

        /// Called with the last published value and a new one; `true` marks the new one as a
        /// duplicate to skip, and a thrown error ends the stream.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Makes a publisher that publishes the values of `upstream` except those the throwing
        /// `predicate` marks as duplicates of the last one published.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<DuplicateStepper<Output, any Error>, Upstream.Failure, S>(
                    DuplicateStepper { previous, next in Result { try predicate(previous, next) } },
                    downstream: subscriber, name: "TryRemoveDuplicates", edges: .strict,
                    reflection: .downstream(state: "last"), convertFailure: anyFailure))
        }
    }
}

/// Remembers the last element published and skips the ones equivalent to it.
@usableFromInline
struct DuplicateStepper<Element, Failure: Error>: ValueStepper {
    @usableFromInline let isDuplicate: (Element, Element) -> Result<Bool, Failure>
    @usableFromInline var previous: Element?

    @inlinable
    var reflectedState: Any? { previous as Any }

    @inlinable
    init(isDuplicate: @escaping (Element, Element) -> Result<Bool, Failure>) {
        self.isDuplicate = isDuplicate
    }

    @inlinable
    mutating func step(_ input: Element) -> ValueStep<Element, Failure> {
        if let previous {
            switch isDuplicate(previous, input) {
            case .success(true): return .skip
            case .success(false): break
            case .failure(let error): return .fail(error)
            }
        }
        previous = input
        return .emit(input)
    }
}

extension Publisher where Output: Equatable {
    /// Skips each value equal to the last value published, so runs of repeats come out once.
    ///
    /// ![A marble diagram of removeDuplicates, drawn from a run of it](marble-removeDuplicates)
    ///
    /// The first element is always published. Each later element is compared with `==` to
    /// the last element published, and skipped when equal; only consecutive repeats go, so a
    /// value that comes back after a different one is published again. A skipped element is
    /// replaced by asking the upstream for one more. The completion and the cancel pass
    /// straight through.
    ///
    /// ```swift
    /// let cancellable = [1, 1, 2, 2, 2, 1].publisher
    ///     .removeDuplicates()
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 1
    /// ```
    ///
    /// - Returns: A ``Publishers/RemoveDuplicates`` that publishes the elements that differ
    ///   from the one published before them.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Skips each value that `predicate` judges a duplicate of the last value published.
    ///
    /// ![A marble diagram of removeDuplicates(by:), drawn from a run of it](marble-removeDuplicates-by)
    ///
    /// The first element is always published. Each later element is passed to `predicate`
    /// together with the last element published (as the first argument); when the closure
    /// returns `true`, the new element counts as a duplicate and is skipped, and the operator
    /// asks the upstream for one more in its place. Because the comparison is with the last
    /// element published, not the last one received, a slowly drifting series is published
    /// again once it has moved far enough from what was last published.
    ///
    /// ```swift
    /// let cancellable = [1.0, 1.3, 1.6, 1.9].publisher
    ///     .removeDuplicates { previous, next in abs(next - previous) < 0.5 }
    ///     .sink { print($0) }
    /// // Prints: 1.0, 1.6
    /// ```
    ///
    /// - Parameter predicate: A closure that receives the last published element and the new
    ///   one and returns `true` when the new one is a duplicate to skip.
    /// - Returns: A ``Publishers/RemoveDuplicates`` that publishes the elements the predicate
    ///   does not mark as duplicates.
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Skips each value that the throwing `predicate` judges a duplicate of the last value
    /// published, and fails with any error `predicate` throws.
    ///
    /// ![A marble diagram of tryRemoveDuplicates(by:), drawn from a run of it](marble-tryRemoveDuplicates)
    ///
    /// Works like `removeDuplicates(by:)`: the first element is always published, and a later
    /// one is skipped when `predicate`, called with the last published element and the new
    /// one, returns `true`. If the closure throws, the upstream is cancelled and the error is
    /// the failure the subscriber receives; the failure type becomes `any Error`.
    ///
    /// ```swift
    /// struct Unreadable: Error {}
    ///
    /// let cancellable = ["a", "a", "b", ""].publisher
    ///     .tryRemoveDuplicates { previous, next in
    ///         if next.isEmpty { throw Unreadable() }
    ///         return previous == next
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: a, b, then failed: Unreadable()
    /// ```
    ///
    /// - Parameter predicate: An error-throwing closure that receives the last published
    ///   element and the new one and returns `true` when the new one is a duplicate to skip.
    /// - Returns: A ``Publishers/TryRemoveDuplicates`` that publishes the elements that are not
    ///   duplicates and fails with `any Error`.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
