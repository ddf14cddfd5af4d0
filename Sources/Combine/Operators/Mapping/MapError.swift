// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes values and a normal finish on, and fails with the error
    /// `transform` makes from the upstream's failure.
    ///
    /// ```
    /// upstream:            --1--2--#(URLError)
    /// mapError{.network}:  --1--2--#(.network)
    /// ```
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output

        /// The publisher whose failure is converted.
        public let upstream: Upstream

        /// The closure that turns the upstream's error into the error this publisher fails with.
        public let transform: (Upstream.Failure) -> Failure

        /// Makes a publisher that republishes `upstream` and converts its failure with
        /// `transform`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Makes a publisher that republishes `upstream` and converts its failure with `map`;
        /// the same as `init(upstream:transform:)`.
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(FailureConverter(downstream: subscriber, convert: transform, name: "MapError"))
        }
    }
}

extension Publisher {
    /// Hands a failure of this publisher to `transform` and fails with the error it returns.
    ///
    /// ![A marble diagram of mapError(_:), drawn from a run of it](marble-mapError)
    ///
    /// Elements and a normal finish pass through untouched; only a `.failure` completion goes
    /// through `transform`, and its result is the failure the subscriber receives. Requests
    /// and the cancel go straight to the upstream.
    ///
    /// ```swift
    /// struct TimedOut: Error {}
    /// enum LoadError: Error { case network }
    ///
    /// let cancellable = Fail<Int, TimedOut>(error: TimedOut())
    ///     .mapError { _ in LoadError.network }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: failed: network
    /// ```
    ///
    /// - Parameter transform: A closure that receives the upstream's error and returns the
    ///   error to fail with instead.
    /// - Returns: A ``Publishers/MapError`` with the same elements and the new failure type.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}

/// Passes values and the subscription through and converts the failure: the subscriber of
/// `mapError` and `setFailureType`.
struct FailureConverter<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = UpstreamFailure

    let downstream: Downstream
    let convert: (UpstreamFailure) -> Downstream.Failure
    let description: String
    /// The mirror's children: none, or what Apple's `assertNoFailure` shows.
    let reflected: [Mirror.Child]
    let combineIdentifier = CombineIdentifier()

    init(
        downstream: Downstream, convert: @escaping (UpstreamFailure) -> Downstream.Failure, name: String,
        reflected: [Mirror.Child] = []
    ) {
        self.downstream = downstream
        self.convert = convert
        self.description = name
        self.reflected = reflected
    }

    var customMirror: Mirror { Mirror(self, children: reflected) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: completion.mapError(convert))
    }
}
