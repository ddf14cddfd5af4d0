// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that turns each upstream value into an inner publisher and merges the values
    /// of all inner publishers.
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
        /// The type of values of the publishers that the transform returns.
        public typealias Output = NewPublisher.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are turned into inner publishers.
        public let upstream: Upstream

        /// How many inner publishers may be subscribed at the same time.
        public let maxPublishers: Subscribers.Demand

        /// Makes the inner publisher for an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that subscribes to the publisher `transform` returns for each
        /// value of `upstream`, with at most `maxPublishers` of them live at once.
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
    /// Maps each value of this publisher to an inner publisher and publishes the values of all
    /// of them, with at most `maxPublishers` subscribed at a time.
    ///
    /// ![A marble diagram of flatMap(maxPublishers:_:), drawn from a run of it](marble-flatMap)
    ///
    /// With `maxPublishers: .max(1)`, the next upstream value is asked for only when the live inner
    /// publisher has finished:
    ///
    /// ![A marble diagram of flatMap(maxPublishers: .max(1)), drawn from a run of it](marble-flatMap-maxPublishers)
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
    ///   - maxPublishers: How many inner publishers may be subscribed at the same time;
    ///     `.unlimited` by default.
    ///   - transform: A closure that returns the inner publisher for a value of this
    ///     publisher.
    /// - Returns: A ``Publishers/FlatMap`` publisher that publishes the values of every
    ///   inner publisher.
    public func flatMap<T, P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// Maps each value of this publisher, which can't fail, to an inner publisher that can,
    /// and publishes the values of all of them.
    ///
    /// ![A marble diagram of flatMap(maxPublishers:_:), drawn from a run of it](marble-flatMap)
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
    ///   - maxPublishers: How many inner publishers may be subscribed at the same time;
    ///     `.unlimited` by default.
    ///   - transform: A closure that returns the inner publisher for a value of this
    ///     publisher.
    /// - Returns: A ``Publishers/FlatMap`` over this publisher with its failure type set to
    ///   the inner publishers' (``Publishers/SetFailureType``).
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
    }

    /// Maps each value of this publisher, which can't fail, to an inner publisher that can't
    /// fail either, and publishes the values of all of them.
    ///
    /// ![A marble diagram of flatMap(maxPublishers:_:), drawn from a run of it](marble-flatMap)
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
    ///   - maxPublishers: How many inner publishers may be subscribed at the same time;
    ///     `.unlimited` by default.
    ///   - transform: A closure that returns the inner publisher for a value of this
    ///     publisher.
    /// - Returns: A ``Publishers/FlatMap`` publisher that publishes the values of every
    ///   inner publisher.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// Maps each value of this publisher to an inner publisher that can't fail, and publishes
    /// the values of all of them.
    ///
    /// ![A marble diagram of flatMap(maxPublishers:_:), drawn from a run of it](marble-flatMap)
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
    ///   - maxPublishers: How many inner publishers may be subscribed at the same time;
    ///     `.unlimited` by default.
    ///   - transform: A closure that returns the inner publisher for a value of this
    ///     publisher.
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
