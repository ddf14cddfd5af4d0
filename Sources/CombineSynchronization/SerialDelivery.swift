// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The serial-delivery engine: makes the calls into one subscriber one at a time, whichever
/// threads the events come from. Every place that delivers to one subscriber from events that
/// may arrive on several threads keeps one (a subject's conduit, `QueuedSubscription` and the operators on
/// it); the rules are stated once, in ARCHITECTURE.md ("Serial delivery"):
///
/// - The thread that finds nobody delivering takes the role (``role``) and calls the
///   subscriber itself, with no lock held. A call made from inside the subscriber's own
///   callback on that thread is delivered at once, nested, as Combine does.
/// - A thread that finds another thread delivering leaves its event in the backlog, a ring
///   queue (O(1) per event) that the delivering thread empties after its current call. The
///   backlog is bounded: a thread that finds it holding ``Limits/backlog`` events waits until
///   the delivering thread has handed half of them over (back-pressure, as the lock held
///   during the call gives in Apple's implementation), so memory stays flat under a flood.
/// - The delivering thread's work for others is bounded: once it has delivered
///   ``Limits/budget`` events from the backlog, the next thread to arrive with an event queues
///   it and takes over the role after the current call (it waits for that call, as it would
///   for Apple's lock), and the first thread's `send` returns.
///
/// The engine runs the delivery loop itself (``drive(outermost:lock:next:deliver:)``, in this
/// file with the role and the rules): an owner gives the next step under its lock and the call
/// after it. The fronts decide who runs it, each owning its claim, hand-off, waiting and
/// retry; no owner reads a claim. For an owner whose role is taken under its lock
/// (`SerialDelivery+Fronts.swift`): queue first
/// (``serveLocked(me:lock:afterQueuing:mayWait:takeOverNow:queued:next:deliver:)``), own event
/// first (``deliverOwnLocked(me:lock:mayWait:takeOwn:enqueueOwn:queued:deliverOwn:next:deliver:)``)
/// and one call (``deliverOnce(me:lock:evenIfBusy:beginLocked:call:endLocked:next:deliver:)``: a
/// tick, a subscription handed down). For an owner whose delivering thread takes the role
/// without the lock, a subject's conduit (`SerialDelivery+LockFree.swift`): own event first
/// (``offerIfIdle(me:lock:own:next:deliver:)`` without the lock, then
/// ``offerLocked(me:lock:admitLocked:settleLocked:queued:enqueue:mayWaitForRoom:deliverOwn:next:deliver:)``),
/// and a decision made under the owner's lock (and perhaps its subject's), acted on after them
/// (``decideLocked(me:_:queued:enqueue:)``, ``complete(_:me:lock:deliverOwn:next:deliver:)``: a
/// current value, a completion, a cancel, and the subscription handed down by the thread that
/// created the engine holding the role, ``init(deliveringThread:)``).
/// The owner's backlog goes through ``appendLocked(_:to:)`` and ``takeLocked(from:)``; the
/// threads waiting are in `DeliveryWaiters.swift`.
///
/// The engine keeps no lock of its own: its state is changed under the owner's lock (the
/// methods whose names end in `Locked`), so that the owner's demand and the backlog change
/// together. The backlog is a ring (`RingQueue`) the owner holds next to it and passes in
/// (empty, it allocates nothing); what only contended deliveries need — the threads waiting,
/// the budget, the peak — lives in a small object allocated at the first contended event. The
/// uncontended path reads ``role`` once, takes it and gives it up with one compare-and-swap.
///
/// Invariants it relies on, asserted in debug builds (``checkThreadID(_:)``, ``driveLocked(outermost:lock:next:deliver:)``,
/// ``releaseLocked(queueEmpty:)``):
/// - a thread identity (`currentThreadID()`) is never 0 and never has its lowest bit set: 0
///   means nobody delivers, and the lowest bit of ``role`` is the mark ``pendingBit``;
/// - only the thread holding the role runs the outermost delivery loop or gives the role up
///   under the lock, so the role is not 0 when it does;
/// - the backlog is changed only under the owner's lock, and emptied only by the thread
///   holding the role (or by a completion or a cancel, which end the delivery).
///
/// Not generic, and neither is anything it stores: a generic owner's `deinit` runs
/// unspecialised and would look up the metadata of a generic engine (measured: 750
/// instructions per subscribe and cancel of `subject.map.sink`).
@usableFromInline
package struct SerialDelivery: ~Copyable {
    /// The thread calling into the subscriber now (its id, whose lowest bit is always 0), or
    /// 0; with ``pendingBit`` set while the backlog holds events for it. Changed under the
    /// owner's lock, except by the delivering thread's compare-and-swap back to 0 when nothing
    /// was queued (``releaseIfIdle(me:)``), which saves it taking the lock a second time.
    @usableFromInline let role: Atomic<UInt>
    /// The contended state (an unmanaged ``DeliveryWaiters``, as a bit pattern), or 0 until the
    /// first contended event; released by the engine's `deinit` (the owner's). Held
    /// unmanaged so that the per-event paths reach it without a retain and a release each (two
    /// atomic operations), and in an atomic word so that the engine has no mutable stored
    /// property: a thread waiting to take the role over reads it outside the lock, and any
    /// `mutating` access to the engine would be a (reported) access race with that read.
    @usableFromInline let waitersWord: Atomic<UInt>

    /// `deliveringThread`: 0, or the creating thread, which then holds the role from the start
    /// (a subject's conduit, created by the subscribing thread before it is published: events
    /// sent from other threads wait behind the subscription it hands down, and it finishes with
    /// ``complete(_:me:lock:deliverOwn:next:deliver:)`` and ``RoleDecision/holding``). No
    /// atomic operation: nothing else can reach the engine yet.
    @inlinable
    package init(deliveringThread: UInt = 0) {
        if deliveringThread != 0 { Self.checkThreadID(deliveringThread) }
        role = Atomic(deliveringThread)
        waitersWord = Atomic(0)
    }

    /// Lets go of the contended state, if any (when the owner goes).
    @inlinable
    deinit {
        waiters?.release()
    }

    @inlinable
    var waiters: Unmanaged<DeliveryWaiters>? {
        let bits = waitersWord.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// Set in ``role`` by a thread that queued an event for the delivering thread.
    @inlinable
    static var pendingBit: UInt { 1 }

    /// Debug builds: traps unless `me` can stand for a thread in ``role`` (not 0, lowest bit
    /// clear).
    @inlinable
    @inline(__always)
    static func checkThreadID(_ me: UInt) {
        assert(
            me != 0 && me & pendingBit == 0,
            "SerialDelivery: a thread identity must be non-zero with its lowest bit clear (the role word marks queued events there)"
        )
    }

    /// Whether `me` is calling the subscriber now (read under the owner's lock).
    @inlinable
    package borrowing func isDelivering(me: UInt) -> Bool {
        interleavingPoint()
        return role.load(ordering: .relaxed) & ~Self.pendingBit == me
    }

    /// Under the owner's lock: who delivers an event that thread `me` has now.
    @inlinable
    borrowing func claimLocked(me: UInt) -> DeliveryClaim {
        Self.checkThreadID(me)
        interleavingPoint()
        let current = role.load(ordering: .acquiring)
        if current & ~Self.pendingBit == me { return .nested }
        if current == 0 {
            interleavingPoint()
            role.store(me, ordering: .relaxed)
            return .outermost
        }
        return .busy(current)
    }

    /// The outermost delivery loop, kept out of the owner's uncontended path (which it would
    /// otherwise make longer: measured, 10 instructions per subject send).
    @inlinable
    @inline(never)
    borrowing func driveOutOfLine<Item>(
        lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        drive(outermost: true, lock: lock, next: next, deliver: deliver)
    }

    /// The delivery loop, the one place where a thread holding the role calls the subscriber
    /// event after event: takes the owner's lock, asks the owner for the next step (`next`,
    /// under the lock), and delivers it (`deliver`, after the lock), until the owner has
    /// nothing to deliver or delivers its last event. The outermost delivering thread gives the
    /// role up under the lock when it stops — to the thread waiting to take it over when the
    /// budget is used (it stops then, before asking for the next step), else to nobody; a
    /// nested loop (`outermost` false: called from inside the subscriber) leaves the role as
    /// it is.
    @inlinable
    borrowing func drive<Item>(
        outermost: Bool, lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        lock.acquire()
        driveLocked(outermost: outermost, lock: lock, next: next, deliver: deliver)
    }

    /// ``drive(outermost:lock:next:deliver:)`` entered with the owner's lock held (the caller
    /// claimed the role in the same critical section); returns with it released.
    @inlinable
    borrowing func driveLocked<Item>(
        outermost: Bool, lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        assert(
            !outermost || role.load(ordering: .relaxed) != 0, "SerialDelivery: the delivery loop runs without the role")
        while true {
            let step = outermost && successorWaitingLocked ? .idle : next()
            switch step {
            case .deliver(let item):
                lock.release()
                deliver(item)
                lock.acquire()
            case .last(let item):
                if outermost { releaseLocked(queueEmpty: true) }
                lock.release()
                deliver(item)
                return
            case .idle:
                // With a successor waiting, its event is queued: the role goes to it marked.
                if outermost { releaseLocked(queueEmpty: false) }
                lock.release()
                return
            }
        }
    }

    /// Under the owner's lock: queues `event` behind the others, whoever delivers it.
    @inlinable
    package borrowing func appendLocked<Event>(_ event: Event, to queue: inout RingQueue<Event>) {
        queue.append(event)
        if let waiters {
            let count = queue.count
            waiters._withUnsafeGuaranteedRef { if count > $0.peak { $0.peak = count } }
        }
    }

    /// The contended state, allocated the first time it is needed.
    @inlinable
    borrowing func waitersLocked(queued: Int) -> DeliveryWaiters {
        if let waiters { return waiters.takeUnretainedValue() }
        let created = DeliveryWaiters()
        created.peak = queued
        waitersWord.store(UInt(bitPattern: Unmanaged.passRetained(created).toOpaque()), ordering: .releasing)
        return created
    }

    /// Under the owner's lock: whether a thread waits to take the role over (the outermost
    /// delivery loop then gives it up, ``releaseLocked(queueEmpty:)``, before its next event).
    @inlinable
    var successorWaitingLocked: Bool {
        guard let waiters else { return false }
        return waiters._withUnsafeGuaranteedRef { $0.successor != 0 }
    }

    /// Under the owner's lock: takes the oldest queued event for delivery (counted against
    /// the delivering thread's budget; wakes the threads waiting for room once half of the
    /// backlog is handed over).
    @inlinable
    package borrowing func takeLocked<Event>(from queue: inout RingQueue<Event>) -> Event? {
        guard let event = queue.popFirst() else { return nil }
        if let waiters {
            let count = queue.count
            waiters._withUnsafeGuaranteedRef { $0.didTake(leaving: count) }
        }
        return event
    }

    /// Under the owner's lock: the delivering thread gives up the role — to the thread waiting
    /// to take over, if there is one, else to nobody (waking the threads waiting for room).
    @inlinable
    borrowing func releaseLocked(queueEmpty: Bool) {
        assert(
            role.load(ordering: .relaxed) != 0, "SerialDelivery: the role is given up by a thread that does not hold it"
        )
        guard let waiters else {
            interleavingPoint()
            role.store(0, ordering: .releasing)
            return
        }
        waiters._withUnsafeGuaranteedRef { waiters in
            let next = waiters.release()
            // The role first, then the wake-up: a thread taking over checks the role when woken.
            interleavingPoint()
            role.store(next == 0 || queueEmpty ? next : next | Self.pendingBit, ordering: .releasing)
            if next != 0 || waiters.sleepers > 0 { waiters.wakeAll() }
        }
    }

    /// The most events the backlog has held at once while contended (0 if never
    /// contended): for the stress tests.
    package var peakBacklogLocked: Int {
        guard let waiters else { return 0 }
        return waiters.takeUnretainedValue().peak
    }

    /// The engine's limits, per subscriber.
    @usableFromInline
    package enum Limits {
        /// Events queued for the delivering thread before a sender waits for room. The
        /// backlog never holds more than this plus two (a completion and the event of the
        /// thread taking over are queued whatever the count).
        @inlinable package static var backlog: Int {
            #if DEBUG
            if _slowPath(Interleaving.isInstalled), let limit = Interleaving.hooksOfThisThread?.backlog { return limit }
            #endif
            return 1024
        }
        /// Queued events the delivering thread hands over before the next thread to arrive
        /// takes over from it.
        @inlinable package static var budget: Int {
            #if DEBUG
            if _slowPath(Interleaving.isInstalled), let limit = Interleaving.hooksOfThisThread?.budget { return limit }
            #endif
            return 1024
        }
    }
}

/// A subscription that delivers through a ``SerialDelivery``: how full its backlog has been,
/// for the stress tests.
package protocol SerialDeliveryOwner: AnyObject {
    /// The most events the backlog has held at once (0 if never contended).
    var peakBacklog: Int { get }
}

/// What an owner hands the delivery loop under its lock
/// (``SerialDelivery/drive(outermost:lock:next:deliver:)``).
@usableFromInline
package enum DeliveryStep<Item> {
    /// Deliver this (after the lock), then ask again.
    case deliver(Item)
    /// Deliver this and stop: the delivery ends with it (a completion). The owner has let go
    /// of its subscriber under the lock; the role is given up before the call.
    case last(Item)
    /// Nothing to deliver now.
    case idle
}

/// What a thread does with the event it has (see ``SerialDelivery``). Not generic, so that
/// unspecialised paths can switch over it without looking anything up.
@usableFromInline
enum DeliveryClaim {
    /// This thread is delivering now (a call from inside the subscriber): deliver nested.
    case nested
    /// This thread took the role: deliver, then hand over what was queued meanwhile.
    case outermost
    /// Another thread is delivering (its id, as read).
    case busy(UInt)
    /// Queued for the delivering thread.
    case queued
    /// Queued; wait to take the role over (``SerialDelivery/awaitRole(me:ticket:)``).
    case awaitRole(UInt32)
    /// The backlog is full: wait (``SerialDelivery/awaitRoom(ticket:)``) and try again.
    case awaitRoom(UInt32)

    @inlinable
    var isOutermost: Bool {
        if case .outermost = self { return true }
        return false
    }

    /// Whether this thread delivers its event now (nested or outermost).
    @inlinable
    var deliversHere: Bool {
        switch self {
        case .nested, .outermost: true
        case .busy, .queued, .awaitRole, .awaitRoom: false
        }
    }
}
