extension Optional {
    /// A publisher that publishes an optional value to each subscriber exactly once, if the
    /// optional has a value.
    ///
    /// `Optional<Int>.Publisher(1)` emits 1 then finishes; `Optional<Int>.Publisher(nil)`
    /// only finishes.
    public struct Publisher: Combine.Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Wrapped
        /// The kind of errors this publisher might publish.
        public typealias Failure = Never

        /// The result to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately
        /// if the optional doesn't have a value.
        @inlinable
        public init(_ output: Output?) {
            self.output = output
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// - Parameter subscriber: The subscriber to attach; with a value it gets the value on its
        ///   first request and then `.finished`; without one, `.finished` at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Wrapped == S.Input, S.Failure == Never {
            if let output {
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Optional"))
            } else {
                subscriber.receiveSubscriptionAndCompletion(.finished)
            }
        }
    }

    /// A publisher that emits the wrapped value (if any) and finishes.
    @inlinable
    public var publisher: Optional<Wrapped>.Publisher {
        Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
