// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// A publisher whose values and completion are injected from outside, through its `send`
/// methods.
///
/// Calling ``send(_:)`` hands a value to the subject's subscribers. Combine has
/// two: ``PassthroughSubject`` and ``CurrentValueSubject``.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscriber.
    func send(_ value: Self.Output)

    /// Sends a completion signal to the subscriber.
    func send(completion: Subscribers.Completion<Self.Failure>)

    /// Provides this subject an opportunity to establish demand for any new upstream
    /// subscriptions.
    func send(subscription: Subscription)
}

extension Subject where Self.Output == Void {
    /// Sends a void value to the subscriber.
    public func send() {
        send(())
    }
}

/// A subject of ours that lets go of an upstream subscription once it is cancelled (see
/// ``SubjectSubscriber/cancel()``).
protocol UpstreamForgettingSubject: AnyObject {
    /// Lets go of `subscription`, one of the upstream subscriptions sent to the subject.
    func forgetUpstream(_ subscription: AnyObject)
}

/// Feeds a subject from an upstream publisher: the subscriber behind
/// `Publisher.receive(subscriber: _:)` for subjects and `AnySubscriber.init(_:)` for subjects.
///
/// As Apple's, it drops values and a completion that come before its subscription, and
/// mirrors the subject and the upstream subscription. Unlike Apple's it holds the subject
/// strongly until the end or a cancel (Apple's holds it weakly; see the conformance list).
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var subject: Downstream?
    private var upstream: Subscription?

    init(_ subject: Downstream) {
        self.subject = subject
    }

    var description: String { "Subject" }
    var playgroundDescription: Any { description }

    var customMirror: Mirror {
        lock.acquire()
        let (subject, upstream) = (self.subject, self.upstream)
        lock.release()
        let children: [Mirror.Child] = [
            ("downstreamSubject", subject as Any), ("upstreamSubscription", upstream as Any),
            ("subject", subject as Any),
        ]
        return Mirror(self, children: children)
    }

    func receive(subscription: Subscription) {
        let subject: Downstream? = lock.withLock {
            guard upstream == nil, let subject = self.subject else { return nil }
            upstream = subscription
            return subject
        }
        guard let subject else {
            subscription.cancel()
            return
        }
        subject.send(subscription: self)
        // Cancelled while handing itself to the subject: the subject may have kept it after the
        // cancel looked for it.
        if lock.withLock({ self.subject == nil && self.upstream == nil }) { Self.forget(self, in: subject) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { upstream == nil ? nil : subject }?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard self.upstream != nil else {
            lock.release()
            return
        }
        let subject = self.subject
        self.subject = nil
        let upstream = self.upstream.take()
        lock.release()
        withExtendedLifetime(upstream) {}  // released here, outside the lock
        subject?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    /// Tells `subject`, if it is one of ours, to let go of `subscription`.
    private static func forget(_ subscription: SubjectSubscriber, in subject: Downstream) {
        (subject as? any UpstreamForgettingSubject)?.forgetUpstream(subscription)
    }

    func cancel() {
        lock.acquire()
        let upstream = self.upstream
        let subject = self.subject
        self.upstream = nil
        self.subject = nil
        lock.release()
        upstream?.cancel()
        // Our subjects let go of the cancelled subscription (the release rule): a subject fed by
        // one connection after another would otherwise keep them all.
        if let subject { Self.forget(self, in: subject) }
        // Released outside the lock: when this was the subject's last reference, the subject's
        // deinit cancels its upstreams, this subscriber among them.
        withExtendedLifetime(subject) {}
    }
}
