import CombineSynchronization

/// Connects on the first subscriber and disconnects when every subscriber has cancelled: the
/// logic of `autoconnect()` (and so of `share()`, which is `multicast` then `autoconnect`).
///
/// As Apple's, only a cancel counts a subscriber out: one that has received its completion
/// still counts, so after the upstream has completed a later subscriber does not reconnect
/// (it receives the completion the subject replays). Once every subscriber has cancelled, the
/// connection is cancelled and the next subscriber connects again.
final class ConnectionRefCount<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var subscribers = 0
    private var connection: Cancellable?
    /// Connects the shared publisher.
    private let connect: () -> Cancellable

    init(connect: @escaping () -> Cancellable) {
        self.connect = connect
    }

    /// Subscribes `subscriber` to `publisher` (the shared side), connecting first if it is the
    /// first subscriber since the last disconnect. `parent` is what the subscriber's stand-in
    /// shows in its mirror (the `Autoconnect` publisher).
    func attach<P: Publisher, S: Subscriber>(_ subscriber: S, to publisher: P, parent: AnyObject)
    where P.Output == Output, P.Failure == Failure, S.Input == Output, S.Failure == Failure {
        let first: Bool = lock.withLock {
            subscribers += 1
            return subscribers == 1
        }
        publisher.subscribe(AutoconnectSubscriber(downstream: subscriber, refCount: self, parent: parent))
        if first {
            let connection = connect()
            let stale: Bool = lock.withLock {
                guard subscribers > 0, self.connection == nil else { return true }
                self.connection = connection
                return false
            }
            if stale { connection.cancel() }
        }
    }

    /// A subscriber cancelled.
    fileprivate func left() {
        let connection: Cancellable? = lock.withLock {
            subscribers -= 1
            guard subscribers == 0 else { return nil }
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
