extension Result {
    /// A publisher that publishes an output to each subscriber exactly once then finishes,
    /// or fails immediately without producing any elements.
    ///
    /// `Result<Int, MyError>.success(1).publisher` emits 1 then finishes;
    /// `.failure(e).publisher` fails with `e` on subscription.
    public struct Publisher: Combine.Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher that delivers the specified result.
        @inlinable
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to all subscribers and then
        /// finishes normally.
        @inlinable
        public init(_ output: Output) {
            self.result = .success(output)
        }

        /// Creates a publisher that immediately terminates upon subscription with the given
        /// failure.
        @inlinable
        public init(_ failure: Failure) {
            self.result = .failure(failure)
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// - Parameter subscriber: The subscriber to attach; on success it gets the value on its
        ///   first request and then `.finished`; on failure, the failure at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Success == S.Input, Failure == S.Failure {
            switch result {
            case .success(let output):
                subscriber.receive(
                    subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Once"))
            case .failure(let error):
                subscriber.receiveSubscriptionAndCompletion(.failure(error))
            }
        }
    }

    /// A publisher that publishes this result: its value then `.finished`, or its failure.
    @inlinable
    public var publisher: Result<Success, Failure>.Publisher {
        Publisher(self)
    }
}

extension Result.Publisher: Equatable where Output: Equatable, Failure: Equatable {}
