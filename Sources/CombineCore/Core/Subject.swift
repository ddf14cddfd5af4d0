/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject broadcasts values to its subscribers by calling ``send(_:)``. Combine has
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

/// Feeds a subject from an upstream publisher: the subscriber behind
/// `Publisher.receive(subscriber: _:)` for subjects and `AnySubscriber.init(_:)` for subjects.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
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
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { subject }?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        let subject = self.subject.take()
        let upstream = self.upstream.take()
        lock.release()
        _ = upstream  // released here, outside the lock
        subject?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let upstream = self.upstream
        let subject = self.subject
        self.upstream = nil
        self.subject = nil
        lock.release()
        upstream?.cancel()
        // Released outside the lock: when this was the subject's last reference, the subject's
        // deinit cancels its upstreams, this subscriber among them.
        withExtendedLifetime(subject) {}
    }
}
