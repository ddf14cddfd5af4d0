// SPDX-License-Identifier: Apache-2.0
/// A subject that relays each value it is sent to the subscribers attached at that moment.
///
/// It stores nothing, unlike ``CurrentValueSubject``: a subscriber sees only the values sent
/// after it subscribed. A value sent while a subscriber has no outstanding demand is
/// dropped for that subscriber. A completion reaches every subscriber, with or without
/// demand, and a subscriber that arrives after completion receives the completion at once.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send("hello")             // prints "hello"
/// subject.send(completion: .finished)
/// ```
///
/// All methods may be called from any thread. Calls into one subscriber never overlap.
public final class PassthroughSubject<Output, Failure: Error>: Subject {
    @usableFromInline let core = SubjectCore<Output, Failure>(current: nil, kind: .passthrough)

    /// Creates a subject.
    public init() {}

    deinit {
        core.cancelUpstreams()
    }

    /// Sends a value to every subscriber with outstanding demand.
    @inlinable
    public func send(_ input: Output) {
        core.send(input)
    }

    /// Sends a completion signal to every subscriber. Later calls are ignored.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Keeps the upstream subscription and requests `.unlimited` from it once any
    /// subscriber of this subject has requested values.
    public func send(subscription: Subscription) {
        core.send(subscription: subscription)
    }

    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        core.receive(subscriber: subscriber)
    }
}

extension PassthroughSubject: UpstreamForgettingSubject {
    func forgetUpstream(_ subscription: AnyObject) {
        core.forgetUpstream(subscription)
    }
}
