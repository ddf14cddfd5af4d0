// SPDX-License-Identifier: Apache-2.0
extension Result {
    /// A publisher that hands each subscriber a result: the success value followed by
    /// `.finished`, or the failure alone.
    ///
    /// `Result<Int, MyError>.success(1).publisher` emits 1 then finishes;
    /// `.failure(e).publisher` fails with `e` on subscription.
    public struct Publisher: Combine.Publisher {
        /// The type of the result's success value.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Output, Failure>

        /// Creates a publisher of `result`.
        @inlinable
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// Creates a publisher of a success: each subscriber receives `output`, then
        /// `.finished`.
        @inlinable
        public init(_ output: Output) {
            self.result = .success(output)
        }

        /// Creates a publisher of a failure: each subscriber receives `failure` right after
        /// its subscription.
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
