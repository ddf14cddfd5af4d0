// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that publishes, for each upstream value, what `transform` returns for it.
    ///
    /// ```
    /// upstream:  --1--2--3--|
    /// map{$0*10}: --10-20-30-|
    /// ```
    ///
    /// `Map` adds no subscription of its own: the upstream subscription passes straight to
    /// the subscriber, so demand and cancellation go directly upstream.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The closure that turns each upstream value into the value published.
        public let transform: (Upstream.Output) -> Output

        /// Makes a publisher that publishes `transform` applied to each value of `upstream`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: ForwardingSubscriber
        where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @usableFromInline typealias Input = Upstream.Output
            @usableFromInline typealias Failure = Upstream.Failure

            @usableFromInline let downstream: Downstream
            @usableFromInline let transform: (Upstream.Output) -> Output
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline var description: String { "Map" }

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
                self.downstream = downstream
                self.transform = transform
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                downstream.receive(transform(input))
            }
        }
    }
}

extension Publisher {
    /// Publishes the result of `transform` for each value, in place of the value.
    ///
    /// ![A marble diagram of map, drawn from a run of it](marble-map)
    ///
    /// Each element goes through `transform` as it arrives, and the result is published in its
    /// place; the completion, a failure included, passes through unchanged. `map` adds no
    /// subscription of its own: the subscriber's requests and cancel go straight to the
    /// upstream, so asking for `n` values asks the upstream for exactly `n` elements.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .map { $0 * 10 }
    ///     .sink { print($0) }
    /// // Prints: 10, 20, 30
    /// ```
    ///
    /// - Parameter transform: A closure that receives one element and returns the value to
    ///   publish in its place.
    /// - Returns: A ``Publishers/Map`` that publishes the transformed elements and fails when
    ///   the upstream fails.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Fuses two maps into one: `map(f).map(g)` is `map { g(f($0)) }` over the same upstream.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-Map-map)
    ///
    /// - Parameter transform: A closure applied to the result of this map's closure.
    /// - Returns: One ``Publishers/Map`` over the same upstream that applies both closures in
    ///   turn.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
}
