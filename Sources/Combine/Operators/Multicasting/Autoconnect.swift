// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that connects its connectable upstream when it gets a subscriber, and
    /// disconnects it when the last subscriber cancels.
    ///
    /// The first subscriber connects it; when every subscriber has cancelled, the connection
    /// is cancelled too, and the next subscriber connects again. As Apple's, a subscriber that
    /// received the completion still counts until it cancels.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher that is connected and disconnected.
        public final let upstream: Upstream

        private let refCount: ConnectionRefCount<Output, Failure>

        /// Creates a publisher that calls `upstream.connect()` on behalf of its subscribers.
        public init(upstream: Upstream) {
            self.upstream = upstream
            refCount = ConnectionRefCount { upstream.connect() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            refCount.subscribe(subscriber, to: upstream, parent: self)
        }
    }
}

extension ConnectablePublisher {
    /// Returns a publisher that connects and disconnects this connectable publisher as
    /// subscribers come and go.
    ///
    /// ![A marble diagram of autoconnect(), drawn from a run of it](marble-autoconnect)
    ///
    /// The first subscriber calls `connect()` for you, right after it has attached; when
    /// the last subscriber cancels, the connection is cancelled, and the next subscriber
    /// connects again. Use it when you do not need to attach several subscribers before the
    /// values start, as with a timer:
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .default)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// // Prints the current date every second while the main run loop runs
    /// ```
    ///
    /// Only a cancel counts a subscriber out: once the upstream has completed, a later
    /// subscriber receives that completion and does not connect again (as in Apple's
    /// Combine). Values and demand pass between each subscriber and the connectable
    /// publisher unchanged.
    ///
    /// - Returns: A ``Publishers/Autoconnect`` publisher that connects to this publisher when
    ///   its first subscriber attaches.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

/// Connects on the first subscriber and disconnects when every subscriber has cancelled: the
/// logic of `autoconnect()` (and so of `share()`, which is `multicast` then `autoconnect`).
///
/// As Apple's, only a cancel counts a subscriber out: one that has received its completion
/// still counts, so after the upstream has completed a later subscriber does not reconnect
/// (it receives the completion the subject replays). Once every subscriber has cancelled, the
/// connection is cancelled and the next subscriber connects again.
///
/// Also as Apple's, a subscriber that arrives on the thread making the connection, before it is
/// made (from inside the first subscriber's `receive(subscription:)`, say), finds no connection
/// yet and connects too, and the connection made last is the one kept, with the count it had
/// (the conformance suite's autoconnect re-entrance test records this: connected twice, and
/// disconnected once, by the first cancel).
///
/// Across threads there is at most one live connection at any time (our *serial* rule; Apple's
/// lets each concurrent first subscriber connect, and connects again while the last cancel is
/// still disconnecting): two connections feeding one subject deliver values twice or out of
/// order, and a cold upstream runs twice. A subscriber that arrives while another thread is
/// connecting or disconnecting is counted in and does not connect; the thread disconnecting
/// connects again on its behalf once the old connection is cancelled. Nobody waits for
/// another thread.
///
/// A cancel while the first connection is being made counts the subscriber out, and a
/// connection whose subscribers have all left by the time it is made is cancelled at once (our
/// *release* rule: Apple's keeps it, counted for the subscriber that has left, so that it is
/// never cancelled — a timer or a network stream behind it runs for ever).
final class ConnectionRefCount<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var subscribers = 0
    /// The connection while connected; `nil` while disconnected or while the first connection
    /// is being made.
    private var connection: Cancellable?
    /// The thread making or cancelling a connection (`currentThreadID()`), 0 when none is.
    private var busyThread: UInt = 0
    /// Connects the shared publisher.
    private let connect: () -> Cancellable

    init(connect: @escaping () -> Cancellable) {
        self.connect = connect
    }

    /// Subscribes `subscriber` to `publisher` (the shared side), then connects if there was no
    /// connection, made or being made or cancelled by another thread, when it arrived. `parent`
    /// is what the subscriber's stand-in shows in its mirror (the `Autoconnect` publisher).
    func subscribe<P: Publisher, S: Subscriber>(_ subscriber: S, to publisher: P, parent: AnyObject)
    where P.Output == Output, P.Failure == Failure, S.Input == Output, S.Failure == Failure {
        let me = currentThreadID()
        // `connects`: this subscriber connects; `outermost`: it is the first on this thread to.
        let (connects, outermost): (Bool, Bool) = lock.withLock {
            if connection != nil || (busyThread != 0 && busyThread != me) {
                subscribers += 1
                return (false, false)
            }
            guard busyThread == 0 else { return (true, false) }
            busyThread = me
            subscribers = 1
            return (true, true)
        }
        publisher.subscribe(AutoconnectSubscriber(downstream: subscriber, refCount: self, parent: parent))
        guard connects else { return }
        let made = connect()
        var replaced: Cancellable?
        let everyoneLeft: Bool = lock.withLock {
            replaced = connection
            if outermost, subscribers <= 0 {
                // Cancelled (from another thread, or from inside `connect()`) while the
                // connection was being made, and nobody else came: this thread, still marked
                // busy, disconnects it (and connects again for whoever arrives meanwhile).
                connection = nil
                subscribers = 0
                return true
            }
            if outermost { busyThread = 0 }
            subscribers = max(subscribers, 1)
            connection = made
            return false
        }
        // A connection made meanwhile by a subscriber that arrived on this thread while this one
        // subscribed is no longer counted, and is left connected, as Apple's is.
        withExtendedLifetime(replaced) {}
        if everyoneLeft { disconnect(made) }
    }

    /// A subscriber cancelled.
    fileprivate func left() {
        let me = currentThreadID()
        // `disconnects`: this thread took the role of cancelling the connection.
        var disconnects = false
        let connection: Cancellable? = lock.withLock {
            guard self.connection != nil || busyThread != 0 else { return nil }
            subscribers -= 1
            guard subscribers <= 0 else { return nil }
            subscribers = 0
            guard let connection = self.connection.take() else { return nil }
            if busyThread == 0 {
                busyThread = me
                disconnects = true
            }
            return connection
        }
        guard let connection else { return }
        guard disconnects else { return connection.cancel() }
        disconnect(connection)
    }

    /// Cancels `connection`, taken out of the state by this thread, which is marked busy; then
    /// connects again while subscribers that arrived meanwhile (counted in, leaving the
    /// connecting to this thread) are there, and cancels that connection in turn when they have
    /// all left by the time it is made. Leaves the busy mark.
    private func disconnect(_ connection: Cancellable) {
        var connection: Cancellable? = connection
        while let cancelled = connection {
            cancelled.cancel()
            // Subscribers that arrived meanwhile were counted in and left the connecting to
            // this thread.
            let reconnects: Bool = lock.withLock {
                guard subscribers > 0, self.connection == nil else {
                    busyThread = 0
                    return false
                }
                return true
            }
            guard reconnects else { return }
            let made = connect()
            var replaced: Cancellable?  // released after the lock, left connected as in subscribe
            connection = lock.withLock {
                // Everyone it was made for left meanwhile: cancel it, and look again.
                guard subscribers > 0 || self.connection != nil else { return made }
                replaced = self.connection
                self.connection = made
                subscribers = max(subscribers, 1)
                busyThread = 0
                return nil
            }
            withExtendedLifetime(replaced) {}
        }
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
