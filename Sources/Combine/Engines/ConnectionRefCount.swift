// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// Connects on the first subscriber and disconnects when every subscriber has cancelled: the
/// logic of `autoconnect()` (and so of `share()`, which is `multicast` then `autoconnect`).
///
/// As Apple's, only a cancel counts a subscriber out: one that has received its completion
/// still counts, so after the upstream has completed a later subscriber does not reconnect
/// (it receives the completion the subject replays). Once every subscriber has cancelled, the
/// connection is cancelled and the next subscriber connects again.
///
/// Also as Apple's, whether a subscriber connects is decided when it arrives, and the count
/// starts at one when its connection is made: a subscriber that arrives while the first one is
/// still subscribing (from inside its `receive(subscription:)`, say) finds no connection yet and
/// connects too, and the connection made last is the one kept, with a count of one (the
/// conformance suite's autoconnect re-entrance test records this: connected twice, and
/// disconnected once, by the first cancel).
final class ConnectionRefCount<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var subscribers = 0
    /// The connection while connected; `nil` while disconnected.
    private var connection: Cancellable?
    /// Connects the shared publisher.
    private let connect: () -> Cancellable

    init(connect: @escaping () -> Cancellable) {
        self.connect = connect
    }

    /// Subscribes `subscriber` to `publisher` (the shared side), then connects if there was no
    /// connection when it arrived. `parent` is what the subscriber's stand-in shows in its
    /// mirror (the `Autoconnect` publisher).
    func subscribe<P: Publisher, S: Subscriber>(_ subscriber: S, to publisher: P, parent: AnyObject)
    where P.Output == Output, P.Failure == Failure, S.Input == Output, S.Failure == Failure {
        let connects: Bool = lock.withLock {
            guard connection != nil else { return true }
            subscribers += 1
            return false
        }
        publisher.subscribe(AutoconnectSubscriber(downstream: subscriber, refCount: self, parent: parent))
        guard connects else { return }
        let made = connect()
        let replaced: Cancellable? = lock.withLock {
            subscribers = 1
            defer { connection = made }
            return connection
        }
        // A connection made meanwhile by a subscriber that arrived while this one subscribed is
        // no longer counted, and is left connected, as Apple's is.
        withExtendedLifetime(replaced) {}
    }

    /// A subscriber cancelled.
    fileprivate func left() {
        let connection: Cancellable? = lock.withLock {
            guard self.connection != nil else { return nil }
            subscribers -= 1
            guard subscribers <= 0 else { return nil }
            subscribers = 0
            return self.connection.take()
        }
        connection?.cancel()
    }
}

/// Subscribes to the shared side for one subscriber, as Apple's `Autoconnect` does: it hands
/// the subscriber the shared side's subscription behind a stand-in that also counts the
/// cancel, and passes values and the completion straight through.
private struct AutoconnectSubscriber<Downstream: Subscriber, Output, Failure>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Output, Downstream.Failure == Failure {
    typealias Input = Output

    let downstream: Downstream
    let refCount: ConnectionRefCount<Output, Failure>
    let parent: AnyObject
    let combineIdentifier = CombineIdentifier()

    init(downstream: Downstream, refCount: ConnectionRefCount<Output, Failure>, parent: AnyObject) {
        self.downstream = downstream
        self.refCount = refCount
        self.parent = parent
    }

    var description: String { "Autoconnect" }
    var customMirror: Mirror {
        let children: [Mirror.Child] = [("parent", parent), ("downstream", downstream)]
        return Mirror(self, children: children)
    }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        downstream.receive(subscription: CountedSubscription(subscription) { [refCount] in refCount.left() })
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}

/// The shared side's subscription, with a cancel that is counted once: it describes and
/// identifies itself as the subscription it stands for.
private final class CountedSubscription: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    private let lock = Lock()
    private let upstream: Subscription
    private var onCancel: (() -> Void)?

    init(_ upstream: Subscription, onCancel: @escaping () -> Void) {
        self.upstream = upstream
        self.onCancel = onCancel
    }

    var combineIdentifier: CombineIdentifier { upstream.combineIdentifier }
    var description: String { String(describing: upstream) }
    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        upstream.request(demand)
    }

    func cancel() {
        let onCancel = lock.withLock { self.onCancel.take() }
        onCancel?()
        upstream.cancel()
    }
}
