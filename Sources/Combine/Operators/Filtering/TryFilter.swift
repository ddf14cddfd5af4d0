// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes on only the upstream values for which the throwing `isIncluded`
    /// returns `true`, and fails with the error it throws.
    ///
    /// A rejected element is replaced by asking upstream for one more; a thrown error cancels
    /// the upstream and becomes the failure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// Any error: one thrown by `isIncluded`, or the upstream's own failure.
        public typealias Failure = any Error

        /// The publisher whose values are tested.
        public let upstream: Upstream

        /// The test each value must pass, by returning `true`; a thrown error ends the stream.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Makes a publisher that publishes the values of `upstream` that pass the throwing
        /// `isIncluded`.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let isIncluded = self.isIncluded
            upstream.subscribe(
                SteppingSubscriber<
                    TryTransformStepper<Upstream.Output, Upstream.Output>, Upstream.Failure, S
                >(
                    TryTransformStepper { try isIncluded($0) ? $0 : nil }, downstream: subscriber, name: "TryFilter",
                    edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Publishes only the values for which the throwing `isIncluded` returns `true`, and fails
    /// with the error it throws.
    ///
    /// ![A marble diagram of tryFilter(_:), drawn from a run of it](marble-tryFilter)
    ///
    /// An element for which `isIncluded` returns `true` is published; any other is dropped,
    /// and the operator asks the upstream for one more in its place. If the closure throws,
    /// the upstream is cancelled and the error is the failure the subscriber receives; the
    /// failure type becomes `any Error` (an upstream failure arrives as it is).
    ///
    /// ```swift
    /// struct Negative: Error {}
    ///
    /// let cancellable = [2, 3, 4, -1, 6].publisher
    ///     .tryFilter { number in
    ///         guard number >= 0 else { throw Negative() }
    ///         return number.isMultiple(of: 2)
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: 2, 4, then failed: Negative()
    /// ```
    ///
    /// - Parameter isIncluded: An error-throwing closure that receives one element and
    ///   returns `true` to publish it, or throws to end the stream with that error.
    /// - Returns: A ``Publishers/TryFilter`` that publishes the elements that pass the test
    ///   and fails with `any Error`.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.Filter {
    /// Fuses a try-filter into this filter.
    ///
    /// ![A marble diagram of tryFilter(_:), drawn from a run of it](marble-Filter-tryFilter)
    ///
    /// - Parameter isIncluded: An error-throwing test, called only for elements that pass
    ///   this filter's test.
    /// - Returns: One ``Publishers/TryFilter`` over the same upstream that requires both tests.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// Fuses a filter into this try-filter.
    ///
    /// ![A marble diagram of filter(_:), drawn from a run of it](marble-TryFilter-filter)
    ///
    /// - Parameter isIncluded: A second test, called only for elements that pass this
    ///   try-filter's test.
    /// - Returns: One ``Publishers/TryFilter`` over the same upstream that requires both tests.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two try-filters into one.
    ///
    /// ![A marble diagram of tryFilter(_:), drawn from a run of it](marble-TryFilter-tryFilter)
    ///
    /// - Parameter isIncluded: A second error-throwing test, called only for elements that
    ///   pass this try-filter's test.
    /// - Returns: One ``Publishers/TryFilter`` over the same upstream that requires both tests.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}
