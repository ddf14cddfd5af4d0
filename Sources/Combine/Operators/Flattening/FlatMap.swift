extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// ```
    /// upstream:               --a-----b--------|
    /// inner for a:              --a1--a2|
    /// inner for b:                    --b1--b2|
    /// flatMap:                --a1--a2b1--b2--|
    /// ```
    ///
    /// With `maxPublishers: .max(n)` it subscribes to at most `n` inner publishers at once,
    /// asking upstream for a new element each time one of them finishes. The subscriber's
    /// demand covers the values of all inner publishers together.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = NewPublisher.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand

        /// A closure that takes an element as a parameter and returns a publisher that
        /// produces elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new
        /// publisher.
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where NewPublisher.Output == S.Input, Upstream.Failure == S.Failure {
            FlatMapSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, maxPublishers: maxPublishers, switching: false, name: "FlatMap",
                transform: transform
            )
            .subscribe(to: upstream)
        }
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a
    /// maximum number of publishers you specify.
    ///
    /// ```swift
    /// notifications
    ///     .flatMap { data in Just(data).decode(type: Trick.self, decoder: JSONDecoder()).catch { _ in Just(.placeholder) } }
    /// ```
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that never fails into new
    /// publishers that may fail.
    ///
    /// The upstream's `Never` is adapted to the inner publishers' failure type:
    ///
    /// ```swift
    /// let queries = PassthroughSubject<String, Never>()
    /// let results: AnyPublisher<[Item], APIError> = queries
    ///     .flatMap { api.search($0) }   // AnyPublisher<[Item], APIError>
    ///     .eraseToAnyPublisher()
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements from an upstream publisher that never fails into new
    /// publishers that never fail.
    ///
    /// ```swift
    /// [1, 2].publisher.flatMap { [$0, $0 * 10].publisher }.sink { print($0) }   // 1, 10, 2, 20
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into new publishers that never
    /// fail.
    ///
    /// The inner publishers' `Never` is adapted to the upstream's failure type:
    ///
    /// ```swift
    /// authorize()                                       // AnyPublisher<Bool, HealthError>
    ///     .flatMap { ok in ok ? heartRate : Empty() }   // inner publishers never fail
    /// ```
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}
