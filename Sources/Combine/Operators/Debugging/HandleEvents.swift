// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that calls a closure for each kind of event it sees, and passes the events on
    /// unchanged.
    ///
    /// Each closure runs just before the event it observes goes on: `receiveSubscription`
    /// before the subscriber gets its subscription, `receiveRequest` before a request goes
    /// upstream, `receiveOutput` before a value goes downstream, and so on.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream

        /// Called with the upstream's subscription, before the subscriber gets it.
        public var receiveSubscription: ((Subscription) -> Void)?

        /// Called with each upstream value, before the subscriber gets it.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// Called with the upstream's completion, `.finished` or `.failure`, before the
        /// subscriber gets it.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// Called when the subscriber cancels, before the cancel goes upstream.
        public var receiveCancel: (() -> Void)?

        /// Called with each demand the subscriber asks for, whether by a request (before it goes
        /// upstream) or as the demand it returns for a value, when that is not `.none`.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Makes a publisher that calls the given closures as `upstream`'s events pass through;
        /// a `nil` closure observes nothing.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let request = receiveRequest
            // Like Apple's, the demand the subscriber returns for a value is reported as a
            // request when it is not `.none`.
            let callbacks = EventCallbacks(
                subscription: receiveSubscription, output: receiveOutput,
                demandReturned: request.map { report in { if $0 != .none { report($0) } } },
                completion: receiveCompletion, cancel: receiveCancel, request: request)
            upstream.subscribe(
                EventHandlingSubscription(
                    downstream: subscriber, callbacks: callbacks, name: "HandleEvents", reportsAfterEnd: false))
        }
    }
}

extension Publisher {
    /// Calls the given closures as this publisher's events pass through, without changing them.
    ///
    /// ![A marble diagram of handleEvents(receiveSubscription:), drawn from a run of it](marble-handleEvents)
    ///
    /// Use it for side effects that do not change the stream, such as logging or showing
    /// an activity indicator while a query runs:
    /// `query.handleEvents(receiveSubscription: { _ in startQuery() }, receiveCancel: { stopQuery() })`.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .handleEvents(
    ///         receiveSubscription: { _ in print("subscribed") },
    ///         receiveOutput: { print("value", $0) },
    ///         receiveCompletion: { print("completion", $0) },
    ///         receiveCancel: { print("cancelled") },
    ///         receiveRequest: { print("request", $0) })
    ///     .sink { _ in }
    /// // Prints: subscribed, request unlimited, value 1, value 2, completion finished
    /// ```
    ///
    /// Each closure runs just before its event is passed on. Every event passes through
    /// unchanged; `receiveRequest` also sees the demand the subscriber returns from
    /// receiving a value, when it is not `.none`. After the completion or a cancel the
    /// closures are released.
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure called with the upstream's subscription, before
    ///     the subscriber receives it.
    ///   - receiveOutput: A closure called with each value, before the subscriber receives
    ///     it.
    ///   - receiveCompletion: A closure called with the completion, finished or failed.
    ///   - receiveCancel: A closure called when the subscriber cancels.
    ///   - receiveRequest: A closure called with each demand the subscriber asks for.
    /// - Returns: A ``Publishers/HandleEvents`` publisher that republishes this publisher's
    ///   events after calling the closures.
    public func handleEvents(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel, receiveRequest: receiveRequest)
    }
}
