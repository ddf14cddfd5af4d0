/// A subject's side of one subscriber: the subscription that subscriber holds.
class SubjectConduitBase<Output, Failure: Error>: @unchecked Sendable {
    /// The index in the subject's list of conduits; guarded by the subject's lock.
    final var slot = -1

    func offer(_ value: Output) { fatalError("abstract") }
    func finish(_ completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
}

/// Delivers a subject's events to one subscriber, within its demand, one call at a time.
///
/// Calls into the subscriber never overlap and no lock is held during them:
/// - a thread that finds another thread delivering queues its event, and the delivering
///   thread hands it over after its current call returns;
/// - a call made from inside the subscriber's own callback (same thread: a sink that sends
///   into the subject it listens to) is delivered at once, nested, as Combine does.
///
/// A value for a subscriber without outstanding demand is dropped; a completion needs no
/// demand.
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, CustomReflectable, @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = Lock()
    private var downstream: Downstream?
    private var core: SubjectCore<Output, Failure>?
    private var demand = Subscribers.Demand.none
    private var requestedBefore = false
    /// A completion was accepted (it may still wait in `pending`).
    private var terminated = false
    /// The thread calling into the subscriber right now, or 0.
    private var deliveringThread: UInt = 0
    private var pending: [Event] = []

    private let name: String

    init(core: SubjectCore<Output, Failure>, downstream: Downstream, name: String) {
        self.core = core
        self.downstream = downstream
        self.name = name
    }

    var description: String { name }

    var customMirror: Mirror {
        Mirror(self, children: ["downstream": downstream as Any, "demand": lock.withLock { demand }])
    }

    /// Hands the subscription to the subscriber. Events that arrive from other threads
    /// meanwhile wait until it has returned.
    func deliverSubscription() {
        let downstream: Downstream? = lock.withLock {
            deliveringThread = currentThreadID()
            return self.downstream
        }
        downstream?.receive(subscription: self)
        drain()
    }

    override func offer(_ value: Output) {
        let me = currentThreadID()
        let target: (Downstream, outermost: Bool)? = lock.withLock {
            guard let downstream, !terminated, demand > 0 else { return nil }
            demand -= 1
            if deliveringThread == 0 {
                deliveringThread = me
                return (downstream, true)
            }
            if deliveringThread == me { return (downstream, false) }  // re-entrant: nested, as Combine does
            pending.append(.value(value))
            return nil
        }
        guard let (downstream, outermost) = target else { return }
        let more = downstream.receive(value)
        lock.withLock {
            if self.downstream != nil { demand += more }
        }
        if outermost { drain() }
    }

    /// Delivers what other threads queued while this thread was delivering, then releases
    /// the role of delivering thread.
    private func drain() {
        while true {
            let next: (Downstream, Event)? = lock.withLock {
                guard let downstream, !pending.isEmpty else {
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
                let more: Subscribers.Demand = downstream.receive(value)
                lock.withLock {
                    if self.downstream != nil { demand += more }
                }
            case .completion(let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }

    override func finish(_ completion: Subscribers.Completion<Failure>) {
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
        target?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let first: SubjectCore<Output, Failure>? = lock.withLock {
            guard downstream != nil, !terminated else { return nil }
            self.demand += demand
            guard !requestedBefore else { return nil }
            requestedBefore = true
            return core
        }
        first?.conduitDidRequestFirstDemand(self)
    }

    func cancel() {
        let released: (SubjectCore<Output, Failure>?, Downstream?) = lock.withLock {
            defer {
                downstream = nil
                core = nil
                terminated = true
                pending = []
            }
            return (core, downstream)
        }
        released.0?.remove(self)
    }
}
