// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes each upstream value through `transform` and publishes the
    /// unwrapped result, skipping the values for which `transform` returns `nil`.
    ///
    /// ```
    /// upstream:          --"1"--"x"--"3"--|
    /// compactMap{Int($0)}: --1----------3--|
    /// ```
    ///
    /// A `nil` result is replaced: the operator asks upstream for one more element.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The closure called with each upstream value; a `nil` result means the value is skipped.
        public let transform: (Upstream.Output) -> Output?

        /// Makes a publisher that publishes the non-`nil` results of `transform` over the
        /// values of `upstream`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
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
            @usableFromInline let transform: (Upstream.Output) -> Output?
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline var description: String { "CompactMap" }

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
                self.downstream = downstream
                self.transform = transform
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                guard let output = transform(input) else { return .max(1) }
                return downstream.receive(output)
            }
        }
    }
}

extension Publisher {
    /// Transforms each value with `transform` and publishes the results that are not `nil`,
    /// unwrapped.
    ///
    /// ![A marble diagram of compactMap, drawn from a run of it](marble-compactMap)
    ///
    /// A non-`nil` result is published unwrapped; a `nil` result is dropped, and the operator
    /// asks the upstream for one more element in its place, so the subscriber's demand is
    /// spent only on values it receives. The completion and the cancel pass straight through.
    ///
    /// ```swift
    /// let cancellable = ["1", "x", "3"].publisher
    ///     .compactMap { Int($0) }
    ///     .sink { print($0) }
    /// // Prints: 1, 3
    /// ```
    ///
    /// - Parameter transform: A closure that receives one element and returns a value to
    ///   publish, or `nil` to skip the element.
    /// - Returns: A ``Publishers/CompactMap`` that publishes the non-`nil` results.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.CompactMap {
    /// Fuses two compact-maps into one over the same upstream.
    ///
    /// ![A marble diagram of compactMap(_:), drawn from a run of it](marble-CompactMap-compactMap)
    ///
    /// - Parameter transform: A closure applied to each non-`nil` result of this compact-map's
    ///   closure.
    /// - Returns: One ``Publishers/CompactMap`` over the same upstream that applies both
    ///   closures.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a map into this compact-map.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-CompactMap-map)
    ///
    /// - Parameter transform: A closure applied to each non-`nil` result of this compact-map's
    ///   closure.
    /// - Returns: One ``Publishers/CompactMap`` over the same upstream that applies both
    ///   closures.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}
