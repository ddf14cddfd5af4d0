// SPDX-License-Identifier: Apache-2.0
extension Optional {
    /// A publisher that sends an optional's wrapped value, when there is one, to each
    /// subscriber and then finishes.
    ///
    /// `Optional<Int>.Publisher(1)` emits 1 then finishes; `Optional<Int>.Publisher(nil)`
    /// only finishes.
    public struct Publisher: Combine.Publisher {
        /// The type of the optional's wrapped value.
        public typealias Output = Wrapped
        /// This publisher never fails.
        public typealias Failure = Never

        /// The result to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher that sends `output` and finishes, or, when `output` is `nil`,
        /// finishes on subscription.
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
