// SPDX-License-Identifier: Apache-2.0
/// A publisher that sends no value and fails with a fixed error as soon as it is subscribed to.
///
/// ```swift
/// Fail<Int, MyError>(error: .notFound)
///     .sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
/// // prints "failure(notFound)"
/// ```
///
/// The failure is delivered right after the subscription, without waiting for demand.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error every subscriber receives as its failure.
    public let error: Failure

    /// Creates a publisher that fails each subscriber with `error`.
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher that fails each subscriber with `failure`, naming the output type
    /// where it can't be inferred.
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscriber.receiveSubscriptionAndCompletion(.failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {
    /// Returns whether two failing publishers are equal: whether their errors are equal.
    ///
    /// - Parameters:
    ///   - lhs: A failing publisher to compare.
    ///   - rhs: Another failing publisher to compare.
    /// - Returns: `true` if both fail with equal errors.
    public static func == (lhs: Fail, rhs: Fail) -> Bool {
        lhs.error == rhs.error
    }
}
