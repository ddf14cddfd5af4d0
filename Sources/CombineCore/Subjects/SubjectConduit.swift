/// Delivers a subject's events to one subscriber, within its demand, one call at a time: the
/// subscription that subscriber holds.
///
/// Calls into the subscriber never overlap and no lock is held during them:
/// - a thread that finds another thread delivering queues its event, and the delivering
///   thread hands it over after its current call returns;
/// - a call made from inside the subscriber's own callback (same thread: a sink that sends
///   into the subject it listens to) is delivered at once, nested, as Combine does.
///
/// A value for a subscriber without outstanding demand is dropped; a completion needs no
/// demand.
///
/// The conduit is generic over the values only. The subscriber is reached through closures
/// made where the subscriber's type is known (``SubjectCore/receive(subscriber:)``, inlined
/// into the caller), so a delivery runs code specialised for that subscriber instead of
/// generic code looking types up at run time.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomReflectable,
    @unchecked Sendable
{
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// The subscriber, as one closure that calls it (one closure context per subscription,
    /// not two); `nil` once it is done with.
    @usableFromInline
    struct Downstream {
        @usableFromInline let receive: (Event) -> Subscribers.Demand

        @inlinable
        init<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
            // A `sink` (the most common subscriber of a subject) gets its values straight from
            // its closure (see `sinkValueHandler(of:)`): this conduit makes the calls one at a
            // time and drops its subscriber when cancelled.
            if let receiveValue = sinkValueHandler(of: subscriber) {
                receive = { event in
                    switch event {
                    case .value(let value):
                        receiveValue(value)
                    case .completion(let completion):
                        subscriber.receive(completion: completion)
                    }
                    return .none
                }
                return
            }
            receive = { event in
                switch event {
                case .value(let value):
                    return subscriber.receive(value)
                case .completion(let completion):
                    subscriber.receive(completion: completion)
                    return .none
                }
            }
        }

        @inlinable
        func receiveValue(_ value: Output) -> Subscribers.Demand { receive(.value(value)) }

        @inlinable
        func receiveCompletion(_ completion: Subscribers.Completion<Failure>) { _ = receive(.completion(completion)) }
    }

    // Stored properties are laid out in declaration order: the small ones sit beside the
    // 4-byte lock, so that a live subscription takes one malloc size class less.
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var requestedBefore = false
    /// A completion was accepted (it may still wait in `pending`).
    @usableFromInline @exclusivity(unchecked) var terminated = false
    @usableFromInline let kind: SubjectKind
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var core: SubjectCore<Output, Failure>?
    @usableFromInline @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// The thread calling into the subscriber right now, or 0.
    @usableFromInline @exclusivity(unchecked) var deliveringThread: UInt = 0
    @usableFromInline @exclusivity(unchecked) var pending: [Event] = []
    /// The index in the subject's list of conduits; guarded by the subject's lock.
    @usableFromInline @exclusivity(unchecked) var slot = -1

    @inlinable
    init(core: SubjectCore<Output, Failure>, downstream: Downstream, kind: SubjectKind) {
        self.core = core
        self.downstream = downstream
        self.kind = kind
    }

    @usableFromInline
    var description: String { kind.name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }]) }

    /// Hands the subscription to the subscriber, then delivers what arrived from other
    /// threads meanwhile.
    @inlinable
    func deliverSubscription<S: Subscriber>(to subscriber: S) where S.Input == Output, S.Failure == Failure {
        let me = currentThreadID()
        lock.withLock { deliveringThread = me }
        subscriber.receive(subscription: self)
        drain()
    }

    @inlinable
    func offer(_ value: Output) {
        let me = currentThreadID()
        var outermost = false
        let target: Downstream? = lock.withLock {
            guard let downstream, !terminated, demand > 0 else { return nil }
            demand -= 1
            if deliveringThread == 0 {
                deliveringThread = me
                outermost = true
                return downstream
            }
            if deliveringThread == me { return downstream }  // re-entrant: nested, as Combine does
            pending.append(.value(value))
            return nil
        }
        guard let target else { return }
        let more = target.receiveValue(value)
        if outermost {
            let mustDrain: Bool = lock.withLock {
                if downstream != nil { demand += more }
                guard pending.isEmpty else { return true }
                deliveringThread = 0
                return false
            }
            if mustDrain { drain() }
        } else if more > 0 {
            lock.withLock { if downstream != nil { demand += more } }
        }
    }

    /// Delivers what other threads queued while this thread was delivering, then releases
    /// the role of delivering thread.
    @inlinable
    func drain() {
        while true {
            let next: (Downstream, Event)? = lock.withLock {
                guard let downstream, !pending.isEmpty else {
                    if downstream == nil && !pending.isEmpty { pending = [] }  // cancelled meanwhile
                    deliveringThread = 0
                    return nil
                }
                let event = pending.removeFirst()
                if case .completion = event {
                    self.downstream = nil
                    core = nil
                    pending = []
                    deliveringThread = 0
                }
                return (downstream, event)
            }
            guard let (downstream, event) = next else { return }
            switch event {
            case .value(let value):
                let more = downstream.receiveValue(value)
                lock.withLock {
                    if self.downstream != nil { demand += more }
                }
            case .completion(let completion):
                downstream.receiveCompletion(completion)
                return
            }
        }
    }

    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let me = currentThreadID()
        let target: Downstream? = lock.withLock {
            guard let downstream, !terminated else { return nil }
            terminated = true
            if deliveringThread != 0 && deliveringThread != me {
                pending.append(.completion(completion))
                return nil
            }
            self.downstream = nil
            core = nil
            pending = []
            return downstream
        }
        target?.receiveCompletion(completion)
    }

    // `request` and `cancel` are reached through `any Subscription` and so run unspecialised:
    // they take values out of the lock one by one and touch `pending` only when it holds
    // something, so that they need no type metadata looked up at run time.

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.acquire()
        guard downstream != nil, !terminated else {
            lock.release()
            return
        }
        self.demand += demand
        let first = !requestedBefore
        requestedBefore = true
        let core = first ? self.core : nil
        lock.release()
        core?.conduitDidRequestFirstDemand(self)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        let core = self.core
        let downstream = self.downstream
        self.downstream = nil
        self.core = nil
        terminated = true
        lock.release()
        // `pending` is left alone: it holds something only while another thread is
        // delivering, and that thread empties it when it finds the subscriber gone.
        core?.remove(self)
        _ = downstream  // the subscriber's closures are released here, outside the lock
    }
}

/// Which subject a ``SubjectCore`` serves: its subscriptions describe themselves by its name.
@usableFromInline
enum SubjectKind: UInt8, Sendable {
    case passthrough
    case currentValue
    case observableObject
    case published

    @usableFromInline
    var name: String {
        switch self {
        case .passthrough: "PassthroughSubject"
        case .currentValue: "CurrentValueSubject"
        case .observableObject: "ObservableObjectPublisher"
        case .published: "PublishedSubject"
        }
    }
}
