// SPDX-License-Identifier: Apache-2.0
/// A subject that holds a current value and sends every new value to its subscribers.
///
/// A new subscriber receives the current value on its first request, then every value sent
/// while it has demand. Setting ``value`` sends the new value.
///
/// ```swift
/// let isOn = CurrentValueSubject<Bool, Never>(false)
/// let cancellable = isOn.sink { print($0) }   // prints false
/// isOn.value = true                           // prints true
/// ```
///
/// All methods may be called from any thread. Calls into one subscriber never overlap.
/// After completion, ``send(_:)`` has no effect; setting ``value`` stores the value without
/// sending it.
public final class CurrentValueSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject whose current value starts as `value`.
    public init(_ value: Output) {
        core = SubjectCore(current: value, kind: .currentValue, requestsUpstreamAtOnce: true)
    }

    deinit {
        core.cancelUpstreams()
    }

    /// The subject's current value; assigning to it sends the new value to the subscribers.
    ///
    /// Setting it after completion stores the new value without sending it.
    @inlinable
    public var value: Output {
        get { core.currentValue }
        set { core.setCurrentValue(newValue) }
    }

    /// Sends a value to the subscribers and makes it the current value.
    @inlinable
    public func send(_ input: Output) {
        core.send(input)
    }

    /// Sends a completion signal to every subscriber. Later calls are ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps the upstream subscription and requests `.unlimited` from it at once.
    public func send(subscription: Subscription) {
        core.send(subscription: subscription)
    }

    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        core.receive(subscriber: subscriber)
    }
}

extension CurrentValueSubject: UpstreamForgettingSubject {
    func forgetUpstream(_ subscription: AnyObject) {
        core.forgetUpstream(subscription)
    }
}
