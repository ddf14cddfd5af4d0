// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A type that emits values over time, then possibly a completion, to whoever subscribes.
///
/// Each ``Subscriber`` attached to a publisher gets its own stream of events. The subscriber's
/// `Input` and `Failure` associated types must match the publisher's `Output` and `Failure`.
///
/// After ``subscribe(_:)->()`` the publisher calls, in order:
/// - ``Subscriber/receive(subscription:)`` exactly once,
/// - ``Subscriber/receive(_:)`` zero or more times, never beyond the demand requested,
/// - ``Subscriber/receive(completion:)`` at most once, after which nothing more arrives.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .sink { print($0) }   // 1, 2, 3
/// ```
public protocol Publisher<Output, Failure> {
    /// The type of the values this publisher emits.
    associatedtype Output

    /// The type of the error that can end this publisher's stream; `Never` if it can't fail.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implementations must call the subscriber's ``Subscriber/receive(subscription:)``
    /// exactly once. Users call ``subscribe(_:)->()`` rather than this method.
    func receive<S: Subscriber>(subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    ///
    /// Always call this method instead of ``Publisher/receive(subscriber:)``. The publisher
    /// first hands the subscriber a subscription; nothing is delivered until the subscriber
    /// requests values through it.
    ///
    /// ```swift
    /// let subscriber = AnySubscriber<Int, Never>(
    ///     receiveSubscription: { $0.request(.max(2)) },
    ///     receiveValue: { print($0); return .none },
    ///     receiveCompletion: { print($0) })
    /// [1, 2, 3].publisher.subscribe(subscriber)
    /// // Prints: 1, 2 (only two were requested; no completion)
    /// ```
    ///
    /// - Parameter subscriber: The subscriber to attach; its `Input` and `Failure` match this
    ///   publisher's `Output` and `Failure`.
    @inlinable
    @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input {
        if _slowPath(enabledIntrospectionCount.load(ordering: .relaxed) > 0) {
            subscribeObserved(subscriber)
        } else {
            receive(subscriber: subscriber)
        }
    }

    /// The introspected path of `subscribe(_:)`, kept out of its callers' frames: a call to the
    /// unspecialised `subscribeIntrospected(_:)` made inline needs stack for its indirect
    /// arguments in every caller, and in a chain of operators every stage is a caller (each
    /// stage of an erased `map` chain took 592 bytes of stack in a release build with it
    /// inline, 464 without).
    @inlinable
    @inline(never)
    func subscribeObserved<S: Subscriber>(_ subscriber: S) where Self.Failure == S.Failure, Self.Output == S.Input {
        subscribeIntrospected(subscriber)
    }

    /// Attaches the specified subject to this publisher.
    ///
    /// The subject receives every value and the completion of this publisher, and passes
    /// them on to its own subscribers. The subject decides what to request: the subjects of
    /// this module ask for an unlimited number of values once one of their subscribers has
    /// demand. The subject is held until the upstream completes or the returned cancellable
    /// is cancelled.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let output = subject.sink { print($0) }
    /// let cancellable = [1, 2].publisher.subscribe(subject)
    /// // Prints: 1, 2
    /// ```
    ///
    /// - Parameter subject: The subject to feed with this publisher's events.
    /// - Returns: A cancellable that cancels the upstream subscription.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where Self.Failure == S.Failure, Self.Output == S.Output {
        let subscriber = SubjectSubscriber(subject)
        receive(subscriber: subscriber)
        return AnyCancellable(subscriber)
    }
}
