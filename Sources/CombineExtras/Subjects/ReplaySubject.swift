// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

/// A subject that keeps the latest `bufferSize` values it was sent, and its completion, and
/// replays them to each new subscriber before the values that follow.
///
/// ```
/// send:         --1--2--3--   ---4--|
/// subscriber A: --1--2--3--   ---4--|         (subscribed at the start)
/// subscriber B:           [23]---4--|         (bufferSize 2, subscribed after 3)
/// subscriber C:                       [34|]   (subscribed after the completion)
/// ```
///
/// Each subscriber gets the replayed values and then the live ones in order, within its own
/// demand: values it has not asked for yet wait in a queue of its own (the replay included),
/// and the completion waits behind them. A subscriber never misses a value sent after it
/// subscribed, however slowly it requests — as CombineExt's `ReplaySubject` does, unlike
/// Apple's subjects, which drop a value a subscriber has no demand for.
///
/// Upstream subscriptions sent to the subject (`publisher.subscribe(subject)`) are asked for
/// `.unlimited` at once, so the subject records values even before anyone subscribes; after
/// the completion, a new upstream subscription is cancelled without a request. The subject
/// cancels the upstream subscriptions it holds when it is deallocated.
///
/// All methods may be called from any thread: sends are delivered to every subscriber in the
/// order the subject accepted them, a subscriber that subscribes while another thread sends
/// gets each value exactly once (either in its replay or live), and no lock is held while a
/// subscriber is called.
public final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    private let lock = Lock()
    private let bufferSize: Int
    private var replay = RingQueue<Output>()
    private var completion: Subscribers.Completion<Failure>?
    private var conduits: [Conduit] = []
    private var upstreams: [Subscription] = []

    /// Creates a subject that replays up to `bufferSize` of the latest values (a negative
    /// size counts as 0: only the completion is replayed).
    public init(bufferSize: Int) {
        self.bufferSize = Swift.max(0, bufferSize)
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// Sends `value` to every subscriber and keeps it for replay. Ignored after the completion.
    public func send(_ value: Output) {
        let (receivers, dropped): ([Conduit], Output?) = lock.withLock {
            guard completion == nil else { return ([], nil) }
            for conduit in conduits { conduit.delivery.enqueue(value) }
            guard bufferSize > 0 else { return (conduits, nil) }
            replay.append(value)
            return (conduits, replay.count > bufferSize ? replay.popFirst() : nil)
        }
        withExtendedLifetime(dropped) {}  // the value leaving the replay buffer is released here, outside the lock
        // Queued: wait for room, or take the role over, as a sender does (SerialDelivery).
        for receiver in receivers { receiver.delivery.drain(afterQueuing: true) }
    }

    /// Sends the completion to every subscriber (after the values queued for it) and keeps it
    /// for replay. Only the first completion counts.
    public func send(completion: Subscribers.Completion<Failure>) {
        let (receivers, upstreams): ([Conduit], [Subscription]) = lock.withLock {
            guard self.completion == nil else { return ([], []) }
            self.completion = completion
            for conduit in conduits { conduit.delivery.enqueue(completion: completion) }
            defer {
                conduits = []
                self.upstreams = []
            }
            return (conduits, self.upstreams)
        }
        withExtendedLifetime(upstreams) {}  // released outside the lock
        for receiver in receivers { receiver.delivery.drain() }
    }

    /// Takes an upstream subscription: asks it for `.unlimited`, or cancels it if the subject
    /// has completed.
    public func send(subscription: Subscription) {
        let completed: Bool = lock.withLock {
            if completion == nil { upstreams.append(subscription) }
            return completion != nil
        }
        if completed {
            subscription.cancel()
        } else {
            subscription.request(.unlimited)
        }
    }

    /// Attaches the specified subscriber: it gets the replayed values (and the completion, if
    /// the subject has completed), then the values sent after, within its demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = Conduit(subject: self, downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: conduit)
        // The replay is queued and the conduit listed in one step, so no value is missed or
        // seen twice by a subscriber that subscribes while another thread sends.
        let attached: Bool = lock.withLock {
            guard conduit.delivery.isOpen else { return false }  // cancelled in receive(subscription:)
            for value in replay.elements { conduit.delivery.enqueue(value) }
            if let completion {
                conduit.delivery.enqueue(completion: completion)
            } else {
                conduits.append(conduit)
            }
            return true
        }
        if attached { conduit.delivery.drain() }
    }

    private func remove(_ conduit: Conduit) {
        lock.withLock { conduits.removeAll { $0 === conduit } }
    }

    /// A subscriber's subscription: its own queue, delivered within its demand.
    fileprivate final class Conduit: Subscription, CustomStringConvertible, @unchecked Sendable {
        let delivery: DownstreamQueue<AnySubscriber<Output, Failure>>
        private weak var subject: ReplaySubject?

        init(subject: ReplaySubject, downstream: AnySubscriber<Output, Failure>) {
            self.subject = subject
            delivery = DownstreamQueue(downstream)
        }

        var description: String { "ReplaySubject" }

        func request(_ demand: Subscribers.Demand) {
            delivery.request(demand)
        }

        func cancel() {
            guard delivery.cancel() else { return }
            subject?.remove(self)
        }
    }
}

extension ReplaySubject.Conduit: SerialDeliveryOwner {
    var peakBacklog: Int { delivery.peakBacklog }
}
