// SPDX-License-Identifier: Apache-2.0
/// A publisher that gives every subscriber the same single value, followed by `.finished`.
///
/// `Just` delivers its value on the subscriber's first request, then `.finished`:
///
/// ```swift
/// Just(42).sink { print($0) }   // prints 42
/// ```
///
/// It can't fail: its `Failure` is `Never`. Use `setFailureType(to:)` to match a
/// publisher that can.
public struct Just<Output>: Publisher {
    /// This publisher never fails.
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Creates a publisher whose only value, for each subscriber, is `output`.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
        subscriber.receive(subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
    }
}

extension Just: Equatable where Output: Equatable {}
