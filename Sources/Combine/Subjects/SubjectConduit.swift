// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Synchronization

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
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        /// Not delivered: stores the subscriber at the pointer, for the mirror.
        case reflect(UnsafeMutablePointer<Any?>)
    }

    /// What waits in the backlog for the delivering thread. Its own type, not ``Event``: an
    /// event is made and passed for every delivery, and stays a trivial value (no reference
    /// counting) when `Output` is one.
    @usableFromInline
    enum Backlogged {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
        /// A current-value subject's current value given again on a request after a missed
        /// value, with its send's number: the thread delivering drops it if it has delivered
        /// that send (or a newer one) meanwhile (``undeliveredFrom``).
        case currentValue(Output, UInt)
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
                    case .reflect(let subscriberOut):
                        subscriberOut.pointee = subscriber
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
                case .reflect(let subscriberOut):
                    subscriberOut.pointee = subscriber
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
    /// A current-value subject's value was dropped for lack of demand: the next request is
    /// answered with the current value, as the first one is.
    @usableFromInline @exclusivity(unchecked) var missedCurrentValue = false
    /// A completion was accepted (it may still wait in the backlog).
    @usableFromInline @exclusivity(unchecked) var terminated = false
    @usableFromInline let kind: SubjectKind
    /// The index in the subject's list of conduits (see ``slot``); 32 bits, beside the flags.
    @usableFromInline @exclusivity(unchecked) var slotIndex: Int32 = -1
    /// A cancel came while another thread was delivering: that thread lets go of the
    /// subscriber when its call returns (see ``cancel()``).
    @usableFromInline @exclusivity(unchecked) var cancelledWhileDelivering = false
    /// Read without the lock by the thread holding the delivering role (``offer(_:number:siblings:)``),
    /// so it is written only by a thread holding the role, or before the conduit is published.
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var core: SubjectCore<Output, Failure>?
    /// The outstanding demand, as `Subscribers.Demand`'s raw value: atomic, because the
    /// delivering thread takes a unit of it without the lock (``takeDemand()``).
    @usableFromInline let demandWord = Atomic<UInt>(0)
    /// Serialises the calls into the subscriber (see `SerialDelivery`); the events other
    /// threads queue for the delivering thread wait in its backlog. The subscribing thread
    /// holds the role from the start: the conduit is created by it, before it is published in
    /// the subject's list, and events sent from other threads until the subscription is
    /// delivered wait behind it (``deliverSubscription(to:)``).
    @usableFromInline let delivery: SerialDelivery
    @usableFromInline @exclusivity(unchecked) var backlog = RingQueue<Backlogged>()
    /// For a current-value subject: the number of the last send made before this subscriber
    /// was given the current value; the offers of those sends (still on their way from other
    /// threads) are skipped. Set under both locks.
    /// Atomic: the delivering thread reads it without the lock, after the demand (it is
    /// written before the demand it comes with).
    @usableFromInline let offeredThroughWord = Atomic<UInt>(0)
    /// For a current-value subject: the highest send number admitted for delivery (taken a unit
    /// of demand for). A current value is given again after a missed value only when it is
    /// newer: with two threads sending, the missed value may be older than one delivered
    /// meanwhile, and the current value then was delivered already (issue 39).
    @usableFromInline let admittedThroughWord = Atomic<UInt>(0)
    /// For a current-value subject: one more than the highest send number this conduit's
    /// delivering threads have delivered knowing its number (their own sends, and current
    /// values), 0 before any; read and written only by the thread holding the role. A thread on
    /// the lock-free path notes its send admitted only after taking its unit of demand: in
    /// between, a request after a missed value can admit the same send as the current value,
    /// which then waits for the role (or is queued) behind that thread and is dropped.
    @usableFromInline @exclusivity(unchecked) var undeliveredFrom: UInt = 0
    /// The index in the subject's list of conduits, -1 when not in it; guarded by the subject's
    /// lock.
    @inlinable
    var slot: Int {
        get { Int(slotIndex) }
        set { slotIndex = Int32(newValue) }
    }

    @inlinable
    init(core: SubjectCore<Output, Failure>, downstream: Downstream, kind: SubjectKind) {
        self.core = core
        self.downstream = downstream
        self.kind = kind
        delivery = SerialDelivery(deliveringThread: currentThreadID())
    }

    @usableFromInline
    var description: String { kind.name }

    @usableFromInline
    var playgroundDescription: Any { kind.name }

    /// As Apple's: the subject (as `parent` and `subject`), the subscriber and its
    /// outstanding demand; all but the demand are `nil` once the subscription has ended. An
    /// `ObservableObjectPublisher` subscription shows only its subscriber, as Apple's.
    @usableFromInline
    var customMirror: Mirror {
        lock.acquire()
        let (core, downstream, demand) = (self.core, self.downstream, self.demand)
        lock.release()
        var subscriber: Any?
        if let downstream { _ = withUnsafeMutablePointer(to: &subscriber) { downstream.receive(.reflect($0)) } }
        let none = Optional<Any>.none as Any
        if kind == .observableObject {
            return Mirror(self, children: [("downstream", subscriber ?? none)])
        }
        let children: [Mirror.Child] = [
            ("parent", core.map { $0 as Any } ?? none), ("downstream", subscriber ?? none), ("demand", demand),
            ("subject", core.map { $0 as Any } ?? none),
        ]
        return Mirror(self, children: children)
    }

    /// Hands the subscription to the subscriber, then delivers what arrived from other
    /// threads meanwhile.
    @inlinable
    func deliverSubscription<S: Subscriber>(to subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The subscribing thread has held the role since the conduit was created.
        delivery.complete(
            .holding, me: currentThreadID(), lock: lock, deliverOwn: { subscriber.receive(subscription: self) },
            next: { nextLocked() }, deliver: { deliverQueued($0) })
    }

    /// Delivers a value sent by the subject, within demand. `number` is the send's number for
    /// a current-value subject (see `SubjectCore.sentCount`); sends up to ``offeredThrough``
    /// are skipped. `siblings` are the subject's conduits this send goes to: a sender that is
    /// the delivering thread of one of them queues beyond a full backlog rather than wait for
    /// room (``SubjectCore/isDelivering(_:toAnyOf:)``).
    @inlinable
    func offer(_ value: Output, number: UInt, siblings: ContiguousArray<AnyObject?>) {
        let me = currentThreadID()
        // The uncontended path: nobody delivering (so nothing is queued either). Holding the
        // role, taken with one compare-and-swap, this thread alone reads the subscriber, and
        // the demand and the send numbers are atomic: no lock.
        let idle = delivery.offerIfIdle(
            me: me, lock: lock, own: { offerHoldingRole(value, number: number) }, next: { nextLocked() },
            deliver: { deliverQueued($0) })
        if !idle { offerContended(value, number: number, siblings: siblings, me: me) }
    }

    /// Holding the role, found idle: delivers the value if the subscriber has demand for it, or
    /// notes a current-value subscriber's missed value.
    @inlinable
    @inline(__always)
    func offerHoldingRole(_ value: Output, number: UInt) {
        var missed = false
        if let target = downstream {
            // A current-value subscriber's demand is read before the send numbers: the number
            // its current value covers is written before the demand that comes with it
            // (`SubjectCore.offerCurrentValue`).
            if kind == .passthrough || (demandRawValue != 0 && number > offeredThrough) {
                if takeDemand() {
                    if kind != .passthrough { noteAdmittedAndDelivered(number) }
                    deliverValue(value, to: target)
                    return
                }
                missed = kind != .passthrough
            } else {
                missed = demandRawValue == 0
            }
        }
        // Unless the demand found missing was given meanwhile, together with the current value
        // (`SubjectCore.offerCurrentValue`): then nothing was missed.
        if missed, demandRawValue == 0 {
            lock.withLock { missedCurrentValue = true }
        }
    }

    /// The path of a value that finds another thread delivering (or this thread, nested).
    @inlinable
    func offerContended(_ value: Output, number: UInt, siblings: ContiguousArray<AnyObject?>, me: UInt) {
        // The re-entrant path (a subscriber sending into its own subject) nests once per level:
        // delivered from here, it takes no engine frames (StackDepthTests).
        if let nested = admitContended(value, number: number, siblings: siblings, me: me) {
            deliverValue(value, to: nested)
        }
    }

    /// Through the engine's contended own-first front: the subscriber when this thread is to
    /// deliver `value` nested, from inside its own callback; otherwise the value is delivered,
    /// queued or dropped here. Kept out of ``offerContended(_:number:siblings:me:)``, whose
    /// frame the re-entrant path stacks once per level, and out of ``offer(_:number:siblings:)``,
    /// which the closures formed here would make too long to inline.
    @inlinable
    @inline(never)
    func admitContended(_ value: Output, number: UInt, siblings: ContiguousArray<AnyObject?>, me: UInt)
        -> Downstream?
    {
        lock.acquire()
        let nested = delivery.offerLocked(
            me: me, lock: lock, admitLocked: { number > offeredThrough ? admitLocked(number: number) : nil },
            settleLocked: { settleLocked(kept: $0, number: number) }, queued: { backlog.count },
            enqueue: { delivery.appendLocked(.value(value), to: &backlog) },
            mayWaitForRoom: { !SubjectCore<Output, Failure>.isDelivering(me, toAnyOf: siblings) },
            deliverOwn: { deliverOwnValue(value, number: number, to: $0) }, next: { nextLocked() },
            deliver: { deliverQueued($0) })
        // Delivered by the caller, nested, holding the role.
        if nested != nil, kind != .passthrough { noteDeliveredHere(number) }
        return nested
    }

    /// Under the lock: takes one unit of demand for send `number` and returns the subscriber
    /// it goes to; `nil` when the value is dropped for lack of demand (a current-value
    /// subscriber then gets the current value on its next request, as Apple's).
    ///
    /// A value is queued or delivered only with the unit of demand it spends already taken:
    /// the delivering thread takes its units without this lock (``offer(_:number:siblings:)``),
    /// so a unit seen here may be gone by the time the value would be queued. Seeing demand
    /// and then queueing regardless delivered one value beyond the demand when two threads
    /// sent into `.max(1)` (issue 39).
    @inlinable
    func admitLocked(number: UInt) -> Downstream? {
        guard let downstream, !terminated, takeDemand() else {
            if kind != .passthrough { missedCurrentValue = true }
            return nil
        }
        return downstream
    }

    /// Under the lock, once the engine has decided about an admitted send: `kept` (delivered
    /// or queued), a current-value subject notes its number; not kept (no room in the
    /// backlog), the unit of demand goes back. Nobody can have found the demand short
    /// meanwhile: the backlog is full, so the role is held and marked, and the lock-free path
    /// (which needs an idle role) cannot run.
    @inlinable
    func settleLocked(kept: Bool, number: UInt) {
        if !kept {
            addDemand(.max(1))
        } else if kind != .passthrough {
            noteAdmitted(number)
        }
    }

    /// For a current-value subject, under the subject's lock and this conduit's: admits the
    /// current value (send `number`) and decides who delivers it, without waiting for room
    /// (nothing waits under the subject's lock). Give the answer to
    /// ``deliverDecided(_:_:number:)`` after both locks.
    @inlinable
    func offerCurrentLocked(_ value: Output, number: UInt, me: UInt) -> (RoleDecision, Downstream)? {
        guard let target = admitLocked(number: number) else { return nil }
        let offer = delivery.decideLocked(
            me: me, queued: { backlog.count },
            enqueue: { delivery.appendLocked(.currentValue(value, number), to: &backlog) })
        settleLocked(kept: true, number: number)
        return (offer, target)
    }

    /// After the locks: delivers what ``offerCurrentLocked(_:number:me:)`` decided.
    @inlinable
    func deliverDecided(_ decided: (RoleDecision, Downstream), _ value: Output, number: UInt) {
        delivery.complete(
            decided.0, me: currentThreadID(), lock: lock,
            deliverOwn: { if currentValueGoesOut(number: number) { deliverValue(value, to: decided.1) } },
            next: { nextLocked() },
            deliver: { deliverQueued($0) })
    }

    /// For a current-value subject: send `number` was admitted for delivery.
    @inlinable
    func noteAdmitted(_ number: UInt) {
        interleavingPoint()
        var seen = admittedThroughWord.load(ordering: .relaxed)
        while number > seen {
            interleavingPoint()
            let (exchanged, found) = admittedThroughWord.weakCompareExchange(
                expected: seen, desired: number, ordering: .relaxed)
            if exchanged { return }
            seen = found
        }
    }

    /// The lock-free path's admission of send `number`, which this thread then delivers (it
    /// holds the role). Not inlined: `SubjectCore.send`, which
    /// inlines the lock-free path, then stays short enough to be inlined into its caller
    /// (inlined, this bookkeeping made it a call: 330 → 361 instructions per passthrough send).
    @inlinable
    @inline(never)
    func noteAdmittedAndDelivered(_ number: UInt) {
        noteAdmitted(number)
        noteDeliveredHere(number)
    }

    /// Holding the role: send `number` goes out now (see ``undeliveredFrom``).
    @inlinable
    @inline(__always)
    func noteDeliveredHere(_ number: UInt) {
        if number >= undeliveredFrom { undeliveredFrom = number &+ 1 }
    }

    /// For a current-value subject: the highest send number admitted for delivery.
    @inlinable
    var admittedThrough: UInt {
        interleavingPoint()
        return admittedThroughWord.load(ordering: .relaxed)
    }

    /// Calls the subscriber with a value this thread delivers itself; adds the demand it
    /// answers with.
    @inlinable
    func deliverValue(_ value: Output, to target: Downstream) {
        let more = target.receiveValue(value)
        if more > 0 { addDemand(more) }
    }

    /// Holding the role, before a current value given again (send `number`) goes out: a
    /// thread that held the role when it was admitted (this one waited for it, or the value was
    /// queued behind it) may have delivered that send meanwhile, from the lock-free path; then
    /// it is dropped (`false`) and the unit of demand taken for it goes back.
    @inlinable
    @inline(never)
    func currentValueGoesOut(number: UInt) -> Bool {
        guard number >= undeliveredFrom else {
            addDemand(.max(1))
            return false
        }
        noteDeliveredHere(number)
        return true
    }

    /// ``deliverValue(_:to:)`` for send `number`, holding the role: a current-value subject
    /// notes it delivered (see ``undeliveredFrom``).
    @inlinable
    func deliverOwnValue(_ value: Output, number: UInt, to target: Downstream) {
        if kind != .passthrough { noteDeliveredHere(number) }
        deliverValue(value, to: target)
    }

    /// A queued event; with a completion, the subscriber it goes to and what the conduit lets
    /// go of once it is delivered (the subject's core, whose last reference may hold the
    /// current value, and the events it dropped). A value carries no subscriber: the thread
    /// holding the role reads it without the lock (see ``cancel()``), so the loop copies no
    /// subscriber per value: each copy is a retain and a release of its closure's context, and
    /// carrying it through the loop's steps made 4 threads -> 1 sink about 1.5 times slower
    /// (RESULTS.md, issue 30).
    @usableFromInline
    enum Queued {
        case value(Output)
        case completion(
            Downstream, Subscribers.Completion<Failure>, SubjectCore<Output, Failure>?, RingQueue<Backlogged>?)
        /// Cancelled meanwhile: the subscriber and the dropped events, let go after the lock by
        /// the thread that was calling it (see ``cancel()``).
        case cancelled(Downstream?, RingQueue<Backlogged>?)
    }

    /// Under the lock, for the delivery loop: the next queued event.
    @inlinable
    func nextLocked() -> DeliveryStep<Queued> {
        guard downstream != nil, !cancelledWhileDelivering else {
            return .last(.cancelled(self.downstream.take(), dropBacklogLocked()))
        }
        while let event = delivery.takeLocked(from: &backlog) {
            switch event {
            case .value(let value):
                return .deliver(.value(value))
            case .currentValue(let value, let number):
                if currentValueGoesOut(number: number) { return .deliver(.value(value)) }
            case .completion(let completion):
                return .last(
                    .completion(downstream.take().unsafelyUnwrapped, completion, core.take(), dropBacklogLocked()))
            }
        }
        return .idle
    }

    /// For the delivery loop, after the lock: calls the subscriber (read without the lock: this
    /// thread holds the role, and only a role holder lets go of the subscriber).
    @inlinable
    func deliverQueued(_ queued: Queued) {
        switch queued {
        case .value(let value):
            guard let target = downstream else { return }
            let more = target.receiveValue(value)
            if more > 0 { addDemand(more) }
        case .completion(let downstream, let completion, _, _):
            downstream.receiveCompletion(completion)
        case .cancelled:
            break  // what it holds is let go here, outside the lock
        }
    }

    /// Under the lock: empties the backlog (a completion or a cancel ends the delivery),
    /// returning what it held for the caller to release after the lock.
    @inlinable
    func dropBacklogLocked() -> RingQueue<Backlogged>? {
        guard !backlog.isEmpty else { return nil }
        var dropped = RingQueue<Backlogged>()
        swap(&dropped, &backlog)
        return dropped
    }

    /// Queues the completion and delivers it through the engine's queue-first front: the
    /// thread delivering now sends it after its current call, or this thread does; a completion
    /// sent from inside the subscriber comes after what other threads queued before it.
    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard downstream != nil, !terminated else {
            lock.release()
            return
        }
        terminated = true
        // Queued whatever the backlog holds (it ends the delivery).
        delivery.appendLocked(.completion(completion), to: &backlog)
        let me = currentThreadID()
        let decision = delivery.decideLocked(me: me, .queuedFirst, queued: { backlog.count })
        lock.release()
        delivery.complete(
            decision, me: me, lock: lock, deliverOwn: {}, next: { nextLocked() }, deliver: { deliverQueued($0) })
    }

    // `request` and `cancel` are reached through `any Subscription` and so run unspecialised:
    // they take values out of the lock one by one and leave the backlog alone, so that they
    // need no type metadata looked up at run time.

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.acquire()
        guard downstream != nil, !terminated else {
            lock.release()
            return
        }
        let first = !requestedBefore
        requestedBefore = true
        let missed = missedCurrentValue
        missedCurrentValue = false
        let core = first || missed ? self.core : nil
        // A current-value subject adds the first demand (or the first after a missed value)
        // together with the offer of its current value, under its own lock (see
        // `SubjectCore.offerCurrentValue`).
        if kind == .observableObject {
            // As Apple's: once asked for anything, the subscriber gets every later signal.
            addDemand(.unlimited)
        } else if !(core?.holdsCurrentValue ?? false) {
            addDemand(demand)
        }
        lock.release()
        if first {
            core?.conduitDidRequestFirstDemand(self, demand: demand)
        } else if let core {
            core.offerCurrentValue(to: self, adding: demand, replay: true)
        }
    }

    @usableFromInline
    func cancel() {
        let me = currentThreadID()
        lock.acquire()
        let core = self.core
        self.core = nil
        terminated = true
        // The thread delivering reads the subscriber without the lock, so only a thread holding
        // the role lets go of it: this one when nobody is delivering (the engine retires the
        // role for good: a cancel is final) or when it cancels from inside its own call (that
        // call holds its own reference), else the delivering thread when its call returns (the
        // engine marks its role, so that it takes the lock and `nextLocked()` sees the cancel). The backlog is left alone: it holds something only while another thread is
        // delivering, and that thread empties it.
        //
        // Plain loads and stores of the subscriber, not `Optional.take()` or
        // `withExtendedLifetime`: this runs unspecialised, and a generic call over
        // `Downstream?` looks up its type metadata at run time (measured: about 650
        // instructions per cancel, a third of `subscribe+cancel`).
        var downstream: Downstream?
        if delivery.decideLocked(me: me, .cancel).deliversHere {
            downstream = self.downstream
            self.downstream = nil
        } else {
            cancelledWhileDelivering = true
        }
        lock.release()
        core?.remove(self)
        _ = consume downstream  // the subscriber's closures are released here, outside the lock
    }

    /// The outstanding demand.
    @inlinable
    var demand: Subscribers.Demand { Subscribers.Demand(rawValue: demandRawValue) }

    /// The outstanding demand's raw value (an interleaving point first, in debug builds).
    @inlinable
    var demandRawValue: UInt {
        interleavingPoint()
        return demandWord.load(ordering: .acquiring)
    }

    /// For a current-value subject: the number of the last send made before this subscriber
    /// was given the current value (see ``offeredThroughWord``).
    @inlinable
    var offeredThrough: UInt {
        interleavingPoint()
        return offeredThroughWord.load(ordering: .relaxed)
    }

    /// Takes one unit of demand for a value; `false` when there is none. Unlimited demand is
    /// only read.
    @inlinable
    @inline(__always)
    func takeDemand() -> Bool {
        interleavingPoint()
        var current = demandWord.load(ordering: .acquiring)
        while true {
            if current == Subscribers.Demand.unlimitedRawValue { return true }
            if current == 0 { return false }
            interleavingPoint()
            let (exchanged, found) = demandWord.weakCompareExchange(
                expected: current, desired: current - 1, successOrdering: .acquiring, failureOrdering: .acquiring)
            if exchanged { return true }
            current = found
        }
    }

    /// Adds `more` to the outstanding demand (from a request, or returned by the subscriber).
    @usableFromInline
    func addDemand(_ more: Subscribers.Demand) {
        interleavingPoint()
        var current = demandWord.load(ordering: .relaxed)
        while true {
            let sum = (Subscribers.Demand(rawValue: current) + more).rawValue
            if sum == current { return }
            interleavingPoint()
            let (exchanged, found) = demandWord.weakCompareExchange(
                expected: current, desired: sum, successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return }
            current = found
        }
    }
}

extension SubjectConduit: SerialDeliveryOwner {
    var peakBacklog: Int { lock.withLock { delivery.peakBacklogLocked } }
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
