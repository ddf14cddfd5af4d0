// SPDX-License-Identifier: Apache-2.0
import Synchronization

// The lock-free role: an owner whose delivering thread reads its state without the lock (a
// subject's conduit) takes the role with one compare-and-swap when nobody delivers and gives it
// up with another when nothing was queued; every other claim of such an owner's role is then a
// compare-and-swap too. ARCHITECTURE.md, "Serial delivery".

extension SerialDelivery {
    /// Without the lock: takes the role if nobody holds it (then nothing is queued either).
    /// For an owner whose delivering thread reads its state without the lock (a subject's
    /// conduit): every other claim of such an owner goes through ``claimRacingLocked(me:)``.
    @inlinable
    @inline(__always)
    borrowing func claimIfIdle(me: UInt) -> Bool {
        Self.checkThreadID(me)
        interleavingPoint()
        return role.compareExchange(expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed)
            .exchanged
    }

    /// ``claimLocked(me:)`` for an owner whose role may also be taken without the lock
    /// (``claimIfIdle(me:)``): the role is taken with a compare-and-swap.
    @inlinable
    borrowing func claimRacingLocked(me: UInt) -> DeliveryClaim {
        Self.checkThreadID(me)
        interleavingPoint()
        var current = role.load(ordering: .acquiring)
        while true {
            if current & ~Self.pendingBit == me { return .nested }
            if current != 0 { return .busy(current) }
            interleavingPoint()
            let (exchanged, found) = role.compareExchange(
                expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .acquiring)
            if exchanged { return .outermost }
            current = found
        }
    }

    /// Under the owner's lock, for a cancel that must not let go of what the delivering thread
    /// reads without the lock: `.outermost` when this thread took the role (nobody was
    /// delivering; ``decideLocked(me:_:queued:enqueue:)`` then retires it), `.nested` when this thread
    /// is the one delivering, `.queued` when another thread is: its role is marked, so that it
    /// takes the lock when its call returns instead of giving the role up without it.
    @inlinable
    borrowing func claimOrMarkLocked(me: UInt) -> DeliveryClaim {
        Self.checkThreadID(me)
        interleavingPoint()
        var current = role.load(ordering: .acquiring)
        while true {
            if current & ~Self.pendingBit == me { return .nested }
            if current & Self.pendingBit != 0 { return .queued }
            let desired = current == 0 ? me : current | Self.pendingBit
            interleavingPoint()
            let (exchanged, found) = role.compareExchange(
                expected: current, desired: desired, successOrdering: .acquiringAndReleasing,
                failureOrdering: .acquiring)
            if exchanged { return current == 0 ? .outermost : .queued }
            current = found
        }
    }

    /// After the delivering thread's own outermost call, without the lock: gives up the role
    /// with one compare-and-swap if nothing was queued meanwhile. `false`: run the delivery
    /// loop (``releaseOrDrive(me:lock:next:deliver:)`` does both).
    @inlinable
    borrowing func releaseIfIdle(me: UInt) -> Bool {
        interleavingPoint()
        return role.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged
    }

    /// After the outermost delivering thread's own call, for an owner whose other threads
    /// queue with ``handOffLocked(seen:me:mayWait:queued:enqueue:)`` (which marks the role): gives the
    /// role up with one compare-and-swap when nothing was queued meanwhile, without the
    /// lock; else runs the delivery loop.
    @inlinable
    @inline(__always)
    borrowing func releaseOrDrive<Item>(
        me: UInt, lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        if releaseIfIdle(me: me) { return }
        driveOutOfLine(lock: lock, next: next, deliver: deliver)
    }
}

// The fronts of an owner whose role is taken without the lock (a subject's conduit): own event
// first (uncontended without the lock, contended under it); a decision made under the owner's
// lock and perhaps others, acted on after them (a current value, a completion queued first, the
// subscription handed down by the thread that created the engine); a cancel.

extension SerialDelivery {
    /// Under the owner's lock, after a racing claim answered `.busy(seen)`: queues this
    /// thread's event for the delivering thread (`enqueue`), or says what the caller must do
    /// instead. `queued`: how many events wait now (the event itself included when the owner
    /// queued it already: `enqueue` then does nothing).
    ///
    /// - `.outermost`: the delivering thread gave up the role meanwhile (without the lock);
    ///   `me` has it now, and its event is not queued.
    /// - `.queued`: queued; the delivering thread's role is marked, so that it takes the lock
    ///   before it gives the role up.
    /// - `.awaitRole(ticket)`: queued; the delivering thread has used its budget, and `me`
    ///   takes over: after the lock, ``awaitRole(me:ticket:)``, then the delivery loop.
    /// - `.awaitRoom(ticket)`: not queued, the backlog is full (only when `mayWait`): after
    ///   the lock, ``awaitRoom(ticket:)``, then everything again.
    ///
    /// Not inlined: the uncontended path never comes here.
    @inlinable
    @inline(never)
    borrowing func handOffLocked(
        seen: UInt, me: UInt, mayWait: Bool, queued: () -> Int, enqueue: () -> Void
    ) -> DeliveryClaim {
        let count = queued()
        if let wait = waitersLocked(queued: count).waitLocked(
            me: me, queued: count, roomAt: mayWait ? Limits.backlog : nil)
        {
            if case .awaitRole = wait { enqueue() }
            return wait
        }
        var expected = seen
        while true {
            if expected & Self.pendingBit != 0 {
                // Already marked (and the mark is cleared only under the lock held here).
                enqueue()
                return .queued
            }
            // Given up meanwhile (without the lock): take it, with a compare-and-swap.
            let desired = expected == 0 ? me : expected | Self.pendingBit
            interleavingPoint()
            let (exchanged, found) = role.compareExchange(
                expected: expected, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                if expected == 0 { return .outermost }
                enqueue()
                return .queued
            }
            expected = found
        }
    }

    /// The own-first front of an owner whose role is taken without the lock (a subject's
    /// conduit), uncontended: when nobody holds the role, takes it with one compare-and-swap,
    /// runs `own` (the owner delivers its event, or declines it, reading its state without the
    /// lock), and gives the role up with another compare-and-swap when nothing was queued
    /// meanwhile, else runs the delivery loop: no lock. `false`: another thread delivers, or
    /// this one is inside the subscriber; nothing was done, and the owner goes on with
    /// ``offerLocked(me:lock:admitLocked:settleLocked:queued:enqueue:mayWaitForRoom:deliverOwn:next:deliver:)``
    /// (from a function of its own, kept out of line: the closures it passes there would make
    /// this path too long to inline where it is called — measured, about 40 instructions per
    /// subject send).
    @inlinable
    @inline(__always)
    package borrowing func offerIfIdle<Item>(
        me: UInt, lock: borrowing Lock, own: () -> Void, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) -> Bool {
        guard claimIfIdle(me: me) else { return false }
        own()
        releaseOrDrive(me: me, lock: lock, next: next, deliver: deliver)
        return true
    }

    /// The own-first front's contended path, entered with the owner's lock held (returns with
    /// it released). `admitLocked` takes what delivering the event spends (a unit of demand),
    /// or says it is dropped (`nil`); then the role is claimed with a compare-and-swap, the
    /// event queued for the delivering thread (`enqueue`), the role taken over from it, or —
    /// when the backlog is full — `settleLocked(false)` gives back what admitting took, and
    /// this thread waits for room (unless `mayWaitForRoom()`, asked after the lock, says no:
    /// then it queues beyond the limit) and everything is asked again. `settleLocked(true)`
    /// once the event is delivered here or queued. `deliverOwn` runs after the lock as the
    /// outermost delivering thread, which then delivers what was queued meanwhile.
    ///
    /// Returns the admitted event when this thread is inside the subscriber's own callback:
    /// the caller delivers it, nested, from its own frame (so that a subscriber sending into
    /// its own subject stacks no engine frame per level); `nil` otherwise.
    @inlinable
    @inline(never)
    package borrowing func offerLocked<Own, Item>(
        me: UInt, lock: borrowing Lock, admitLocked: () -> Own?, settleLocked: (_ kept: Bool) -> Void,
        queued: () -> Int, enqueue: () -> Void, mayWaitForRoom: () -> Bool, deliverOwn: (Own) -> Void,
        next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) -> Own? {
        var mayWait = true
        while true {
            guard let own = admitLocked() else {
                lock.release()
                return nil
            }
            var claim = claimRacingLocked(me: me)
            if case .busy(let seen) = claim {
                claim = handOffLocked(seen: seen, me: me, mayWait: mayWait, queued: queued, enqueue: enqueue)
            }
            if case .awaitRoom(let ticket) = claim {
                settleLocked(false)
                lock.release()
                if mayWaitForRoom() { awaitRoom(ticket: ticket) } else { mayWait = false }
                lock.acquire()
                continue
            }
            settleLocked(true)
            lock.release()
            if case .nested = claim { return own }
            _ = follow(claim, me: me, lock: lock, deliverOwn: { deliverOwn(own) }, next: next, deliver: deliver)
            return nil
        }
    }

    /// Under the owner's lock (and perhaps others), for an event that never waits for room:
    /// who handles it. The answer's ``RoleDecision/deliversHere`` says whether this thread does
    /// (nested, or as the outermost delivering thread); act on it with
    /// ``complete(_:me:lock:deliverOwn:next:deliver:)`` after the locks.
    ///
    /// - `.own` (a current value): delivered here, queued for the thread delivering now with
    ///   `enqueue` (its role marked: it takes the lock before it gives the role up), or
    ///   delivered by this thread after it takes the role over.
    /// - `.queuedFirst` (a completion): the owner queued it already (`enqueue` does nothing);
    ///   whoever delivers runs the delivery loop for it.
    /// - `.cancel` (which is final): handled here — letting go of what the delivering thread
    ///   reads without the lock — when nobody delivers (the role is then retired for good: no
    ///   thread takes it again, every later event finds the owner ended under its lock) or
    ///   when this thread is the one delivering (from inside the subscriber; the loop it
    ///   returns to gives the role up). Otherwise the delivering thread's role is marked, so
    ///   that it takes the lock when its call returns, where the owner's `next` sees the cancel
    ///   and lets go. Nothing to complete; the closures are not used (a cancel runs
    ///   unspecialised, where a closure with a context costs a retain and a release).
    @inlinable
    package borrowing func decideLocked(
        me: UInt, _ event: DecidedEvent = .own, queued: () -> Int = { 0 }, enqueue: () -> Void = {}
    ) -> RoleDecision {
        var claim: DeliveryClaim
        switch event {
        case .own, .queuedFirst:
            claim = claimRacingLocked(me: me)
            if case .busy(let seen) = claim {
                claim = handOffLocked(seen: seen, me: me, mayWait: false, queued: queued, enqueue: enqueue)
            }
        case .cancel:
            claim = claimOrMarkLocked(me: me)
            if case .outermost = claim {
                interleavingPoint()
                role.store(Self.retired, ordering: .releasing)
            }
        }
        return RoleDecision(claim: claim, queuedFirst: event == .queuedFirst)
    }

    /// After the locks: does what ``decideLocked(me:_:queued:enqueue:)`` decided (or
    /// ``RoleDecision/holding``: the role given at the engine's creation) — `deliverOwn` here,
    /// then, as the outermost delivering thread, what was queued meanwhile; or the delivery
    /// loop, for an event queued first or after taking the role over; or nothing (queued for
    /// the thread delivering now).
    @inlinable
    package borrowing func complete<Item>(
        _ decision: RoleDecision, me: UInt, lock: borrowing Lock, deliverOwn: () -> Void,
        next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        if decision.queuedFirst, decision.claim.deliversHere {
            drive(outermost: decision.claim.isOutermost, lock: lock, next: next, deliver: deliver)
            return
        }
        _ = follow(decision.claim, me: me, lock: lock, deliverOwn: deliverOwn, next: next, deliver: deliver)
    }

    /// The role of an owner whose delivery was cancelled while nobody delivered
    /// (``decideLocked(me:_:queued:enqueue:)``): no thread's identity (those have the lowest bit clear, and are
    /// addresses or small integers), so that every claim finds the role taken.
    @inlinable
    static var retired: UInt { UInt.max &- 1 }
}

/// What ``SerialDelivery/decideLocked(me:_:queued:enqueue:)`` decides about.
@usableFromInline
package enum DecidedEvent {
    /// An event this thread delivers itself, unless it is queued (a current value).
    case own
    /// An event the owner has queued already (a completion).
    case queuedFirst
    /// A cancel: whether this thread may let go of the subscriber now.
    case cancel
}

/// Who delivers an event of an owner whose role is taken without the lock, decided under its
/// lock (``SerialDelivery/decideLocked(me:_:queued:enqueue:)``), acted on after it
/// (``SerialDelivery/complete(_:me:lock:deliverOwn:next:deliver:)``).
@usableFromInline
package struct RoleDecision {
    @usableFromInline let claim: DeliveryClaim
    @usableFromInline let queuedFirst: Bool

    @inlinable
    init(claim: DeliveryClaim, queuedFirst: Bool) {
        self.claim = claim
        self.queuedFirst = queuedFirst
    }

    /// The role given to the creating thread (``SerialDelivery/init(deliveringThread:)``): it
    /// makes its call (a subject's conduit hands its subscriber the subscription), then
    /// delivers what other threads queued meanwhile.
    @inlinable
    package static var holding: RoleDecision { RoleDecision(claim: .outermost, queuedFirst: false) }

    /// Whether this thread delivers the event (nested, or as the outermost delivering thread).
    @inlinable
    package var deliversHere: Bool { claim.deliversHere }
}
