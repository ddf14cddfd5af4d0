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

        /// Attaches the specified subscriber to this publisher.
        @inlinable
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
    /// Each upstream value is passed to `transform`, and the publisher it returns (an
    /// "inner" publisher) is subscribed at once; the values of all live inner publishers are
    /// published as they arrive, interleaved. A typical use is starting a request for each
    /// value, such as
    /// `notifications.flatMap { data in Just(data).decode(type: Trick.self, decoder: JSONDecoder()) }`.
    ///
    /// ```swift
    /// struct BadInput: Error {}
    /// let cancellable = [1, 2].publisher
    ///     .setFailureType(to: BadInput.self)
    ///     .flatMap { n in [n, n * 10].publisher.setFailureType(to: BadInput.self) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: 1, 10, 2, 20, finished
    /// ```
    ///
    /// Demand: the upstream is asked for `maxPublishers` values when it is subscribed, and
    /// for one more each time an inner publisher finishes, so at most `maxPublishers` inner
    /// publishers run at once. Each inner publisher is asked for one value at a time (for
    /// `.unlimited` once the subscriber has asked for that), so the subscriber's demand
    /// covers the values of all inner publishers together and none sends far ahead.
    ///
    /// The result finishes when the upstream and every inner publisher have finished. It
    /// fails as soon as the upstream or any inner publisher fails; the other inner
    /// publishers are cancelled first.
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A ``Publishers/FlatMap`` publisher that publishes the values of every
    ///   inner publisher.
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
    /// The upstream's `Never` is adapted to the inner publishers' failure type, so a
    /// publisher of user input can start fallible work for each value, as in
    /// `queries.flatMap { api.search($0) }` (an `AnyPublisher<[Item], APIError>` per query):
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let cancellable = [1, 2].publisher                  // Failure == Never
    ///     .flatMap { page in Result<String, Offline>.Publisher("page \(page)") }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: page 1, page 2, finished
    /// ```
    ///
    /// It behaves as the general `flatMap(maxPublishers:_:)`: at most `maxPublishers`
    /// inner publishers at once, one value asked of each at a time, and the first failure of
    /// an inner publisher ends the result.
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A ``Publishers/FlatMap`` over this publisher with its failure type set to
    ///   the inner publishers' (``Publishers/SetFailureType``).
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Transforms all elements from an upstream publisher that never fails into new
    /// publishers that never fail.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .flatMap { [$0, $0 * 10].publisher }
    ///     .sink { print($0) }
    /// // Prints: 1, 10, 2, 20
    /// ```
    ///
    /// With `maxPublishers: .max(1)` the next upstream value is asked for only once the
    /// current inner publisher has finished, so the inner publishers run one after another.
    /// Otherwise it behaves as the general `flatMap(maxPublishers:_:)`, and never fails.
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A ``Publishers/FlatMap`` publisher that publishes the values of every
    ///   inner publisher.
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
    /// The inner publishers' `Never` is adapted to the upstream's failure type, so
    /// `authorize().flatMap { ok in ok ? heartRate : Empty() }` compiles for an upstream of
    /// type `AnyPublisher<Bool, HealthError>` and inner publishers that never fail:
    ///
    /// ```swift
    /// struct Denied: Error {}
    /// let ids = PassthroughSubject<Int, Denied>()
    /// let cancellable = ids
    ///     .flatMap { id in Just(id * 10) }   // Just never fails; the result fails with Denied
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ids.send(1)                       // Prints: 10
    /// ids.send(completion: .finished)   // Prints: finished
    /// ```
    ///
    /// Only the upstream can fail the result. Otherwise it behaves as the general
    /// `flatMap(maxPublishers:_:)`.
    ///
    /// - Parameters:
    ///   - maxPublishers: The maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A ``Publishers/FlatMap`` over this publisher, whose inner publishers have
    ///   their failure type set to this publisher's (``Publishers/SetFailureType``).
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}
