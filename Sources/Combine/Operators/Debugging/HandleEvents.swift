extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// Each closure runs just before the event it observes goes on: `receiveSubscription`
    /// before the subscriber gets its subscription, `receiveRequest` before a request goes
    /// upstream, `receiveOutput` before a value goes downstream, and so on.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives the subscription from the
        /// upstream publisher.
        public var receiveSubscription: ((Subscription) -> Void)?

        /// A closure that executes when the publisher receives a value from the upstream
        /// publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// A closure that executes when the upstream publisher finishes normally or
        /// terminates with an error.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?

        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that performs the specified closures when publisher events
        /// occur.
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
    /// Performs the specified closures when publisher events occur.
    ///
    /// ```swift
    /// query.handleEvents(
    ///     receiveSubscription: { _ in startQuery() },
    ///     receiveCancel: { stopQuery() })
    /// ```
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
