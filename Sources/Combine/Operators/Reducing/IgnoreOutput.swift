// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that discards every upstream element and passes on only how the upstream
    /// completes, with `.finished` or its failure.
    ///
    /// ```
    /// upstream:       --a--b--c--|
    /// ignoreOutput(): -----------|
    /// ```
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// It never sends an element, only a completion.
        public typealias Output = Never
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// As Apple's: the subscriber gets the upstream subscription itself, and the operator
        /// then asks upstream for everything (the subscriber's own requests still reach
        /// upstream, where they change nothing); every completion is passed on as it comes.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Never {
            upstream.subscribe(Inner(downstream: subscriber))
        }

        @usableFromInline
        struct Inner<Downstream: Subscriber>: ForwardingSubscriber
        where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
            @usableFromInline typealias Input = Upstream.Output
            @usableFromInline typealias Failure = Upstream.Failure

            @usableFromInline let downstream: Downstream
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline var description: String { "IgnoreOutput" }

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }

            @inlinable
            func receive(subscription: Subscription) {
                downstream.receive(subscription: subscription)
                subscription.request(.unlimited)
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                .none
            }
        }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Ignores every element from the upstream publisher and passes on only its completion,
    /// finished or failed.
    ///
    /// ![A marble diagram of ignoreOutput(), drawn from a run of it](marble-ignoreOutput)
    ///
    /// The resulting publisher's `Output` is `Never`: it publishes no value, only the
    /// upstream's completion, as soon as it comes. Use it when only the end of some work
    /// matters. The subscriber receives the upstream's own subscription, and the operator then
    /// asks the upstream for everything, whatever the subscriber requests.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c"].publisher
    ///     .ignoreOutput()
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// // Prints: finished
    /// ```
    ///
    /// - Returns: A `Publishers.IgnoreOutput` publisher that publishes no values and then the
    ///   upstream's completion.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
