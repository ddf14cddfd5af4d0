// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that, when its upstream fails, continues with a publisher made from the
    /// error.
    ///
    /// ```
    /// upstream:              --1--2--#
    /// catch { _ in Just(0) }: --1--2--0|
    /// ```
    ///
    /// The subscriber's outstanding demand carries over to the replacement publisher.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The replacement publisher's failure type: an upstream failure never reaches the
        /// subscriber.
        public typealias Failure = NewPublisher.Failure

        /// The publisher whose failure is caught.
        public let upstream: Upstream

        /// Makes the replacement publisher from the upstream's error.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that republishes `upstream` and, if it fails, the publisher that
        /// `handler` returns for the error.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where NewPublisher.Failure == S.Failure, Upstream.Output == S.Input {
            let handler = self.handler
            let inner = SuccessionSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, name: "Catch", edges: .strict, convertFailure: sameFailure
            ) { completion in
                guard case .failure(let failure) = completion else { return .complete(.finished) }
                return .switchTo(handler(failure))
            }
            upstream.subscribe(inner.firstSubscriber)
        }
    }
}

extension Publisher {
    /// Recovers from a failure of this publisher by switching to a publisher made from the
    /// error.
    ///
    /// ![A marble diagram of catch, drawn from a run of it](marble-catch)
    ///
    /// Values are republished until this publisher fails; the failure is then passed to
    /// `handler`, and the publisher it returns is subscribed in its place. A common use is
    /// a fallback value:
    /// `Just(data).decode(type: Trick.self, decoder: JSONDecoder()).catch { _ in Just(.placeholder) }`.
    ///
    /// ```swift
    /// struct Offline: Error {}
    /// let subject = PassthroughSubject<Int, Offline>()
    /// let cancellable = subject
    ///     .catch { _ in Just(0) }   // Just never fails, so neither does the result
    ///     .sink { print($0) }
    /// subject.send(1)                                 // Prints: 1
    /// subject.send(completion: .failure(Offline()))   // Prints: 0
    /// ```
    ///
    /// The subscriber's outstanding demand carries over to the replacement publisher. A
    /// `.finished` from this publisher finishes the result; the replacement's completion,
    /// whichever it is, ends it. A value from this publisher beyond the subscriber's demand
    /// stops the program with a precondition failure, as in Apple's Combine. Unlike Apple's,
    /// a cancel that comes while the replacement is being subscribed is never lost.
    ///
    /// - Parameter handler: A closure that receives the failure and returns the publisher
    ///   to continue with.
    /// - Returns: A ``Publishers/Catch`` publisher that republishes this publisher's values,
    ///   then those of the replacement if it failed.
    public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}
