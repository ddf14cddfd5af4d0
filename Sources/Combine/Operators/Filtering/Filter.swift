// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes on only the upstream values for which `isIncluded` returns `true`.
    ///
    /// ```
    /// upstream:         --1--2--3--4--|
    /// filter{$0.isEven}: -----2-----4--|
    /// ```
    ///
    /// A rejected element is replaced: the filter asks upstream for one more, so the
    /// subscriber's demand is spent only on elements it receives.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are tested.
        public let upstream: Upstream

        /// The test each value must pass, by returning `true`, to be published.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Makes a publisher that publishes the values of `upstream` that pass `isIncluded`.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: ForwardingSubscriber
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline typealias Input = Upstream.Output
            @usableFromInline typealias Failure = Upstream.Failure

            @usableFromInline let downstream: Downstream
            @usableFromInline let isIncluded: (Upstream.Output) -> Bool
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline var description: String { "Filter" }

            @inlinable
            init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
                self.downstream = downstream
                self.isIncluded = isIncluded
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                isIncluded(input) ? downstream.receive(input) : .max(1)
            }
        }
    }
}

extension Publisher {
    /// Publishes only the values for which `isIncluded` returns `true`.
    ///
    /// ![A marble diagram of filter, drawn from a run of it](marble-filter)
    ///
    /// An element for which `isIncluded` returns `true` is published; any other is dropped,
    /// and the filter asks the upstream for one more element in its place, so the
    /// subscriber's demand is spent only on elements it receives. The completion and the
    /// cancel pass straight through. Calling `filter` on the result fuses both closures into
    /// one `Publishers.Filter`.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3, 4].publisher
    ///     .filter { $0 % 2 == 0 }
    ///     .sink { print($0) }
    /// // Prints: 2, 4
    /// ```
    ///
    /// - Parameter isIncluded: A closure that receives one element and returns `true` to
    ///   publish it.
    /// - Returns: A ``Publishers/Filter`` that publishes the elements that pass the test.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.Filter {
    /// Fuses two filters into one over the same upstream.
    ///
    /// ![A marble diagram of filter(_:), drawn from a run of it](marble-Filter-filter)
    ///
    /// - Parameter isIncluded: A second test, called only for elements that pass this
    ///   filter's test.
    /// - Returns: One ``Publishers/Filter`` over the same upstream that requires both tests.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
}
