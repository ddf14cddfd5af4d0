// SPDX-License-Identifier: Apache-2.0
import Synchronization

// The fronts: how a thread with an event decides, under the owner's lock, whether it delivers
// (nested, or as the outermost delivering thread), leaves the event to the thread delivering
// now, takes the role over from it, or waits for room; and then does so. ARCHITECTURE.md, "The
// driver: one delivery loop".

extension SerialDelivery {
    /// Under the owner's lock, after ``claimLocked(me:)`` answered `.busy(seen)`: queues
    /// `event` for the delivering thread, or says what the caller must do instead.
    ///
    /// - `.outermost`: the delivering thread gave up the role meanwhile (without the lock);
    ///   `me` has it now and delivers `event` itself.
    /// - `.queued`: the delivering thread will deliver it.
    /// - `.awaitRole(ticket)`: queued; the delivering thread has used its budget, and `me`
    ///   takes over: after the lock, ``awaitRole(me:ticket:)``, then deliver the backlog.
    /// - `.awaitRoom(ticket)`: not queued, the backlog is full (only when `mayWait`): after
    ///   the lock, ``awaitRoom(ticket:)``, then try again from the start (demand included).
    ///
    /// Not inlined (but specialised for the owner): the uncontended path never comes here.
    @inlinable
    @inline(never)
    package borrowing func handOffLocked<Event>(
        _ event: Event, to queue: inout RingQueue<Event>, seen: UInt, me: UInt, mayWait: Bool
    ) -> DeliveryClaim {
        let waiters = waitersLocked(queued: queue.count)
        if let wait = waiters.waitLocked(me: me, queued: queue.count, roomAt: mayWait ? Limits.backlog : nil) {
            if case .awaitRole = wait { appendLocked(event, to: &queue) }
            return wait
        }
        var expected = seen
        while true {
            if expected & Self.pendingBit != 0 {
                // Already marked (and the mark is cleared only under the lock held here).
                appendLocked(event, to: &queue)
                return .queued
            }
            // Given up meanwhile (without the lock): take it, with a compare-and-swap, since
            // some owners' roles are also taken without the lock (``claimIfIdle(me:)``).
            let desired = expected == 0 ? me : expected | Self.pendingBit
            interleavingPoint()
            let (exchanged, found) = role.compareExchange(
                expected: expected, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                if expected == 0 { return .outermost }
                appendLocked(event, to: &queue)
                return .queued
            }
            expected = found
        }
    }

    /// Under the owner's lock, for an owner that queues its events first (``appendLocked(_:to:)``)
    /// and then asks who delivers them: after ``claimLocked(me:)`` answered `.busy`, whether
    /// `me` leaves them to the delivering thread (`.queued`), takes the role over from it
    /// (`.awaitRole`, as in ``handOffLocked(_:to:seen:me:mayWait:)``) or, having just queued
    /// beyond the limit (`mayWait`), waits for room (`.awaitRoom`; then returns, its event
    /// being queued already).
    ///
    /// `takeOverNow`: the thread holding the role is handing the subscriber its subscription
    /// (see ``claimKeepingLock(me:lock:takeOverNow:queueIfBusy:)``): the first thread to arrive
    /// then waits to take the role over at once, budget or not.
    @usableFromInline
    @inline(never)
    borrowing func contendLocked(me: UInt, queued: Int, mayWait: Bool, takeOverNow: Bool = false)
        -> DeliveryClaim
    {
        waitersLocked(queued: queued).waitLocked(
            me: me, queued: queued, roomAt: mayWait ? Limits.backlog + 1 : nil, takeOverNow: takeOverNow)
            ?? .queued
    }

    /// The driver's front for an owner that queues its events before delivering them
    /// (`afterQueuing`: this thread has just queued one) or that only added demand: decides
    /// under `lock` who delivers, and does what the rules say (``followLocked(_:me:lock:next:deliver:)``),
    /// claiming again after waiting for room. `queueLocked` runs first, once, in the same
    /// critical section: an owner that queues its event there takes the lock once for queuing,
    /// claiming and the first step of the delivery loop.
    @inlinable
    package borrowing func serve<Item>(
        me: UInt, lock: borrowing Lock, afterQueuing: Bool, queued: () -> Int, queueLocked: () -> Void = {},
        next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        lock.acquire()
        queueLocked()
        serveLocked(me: me, lock: lock, afterQueuing: afterQueuing, queued: queued, next: next, deliver: deliver)
    }

    /// ``serve(me:lock:afterQueuing:queued:queueLocked:next:deliver:)`` entered with the
    /// owner's lock held, after this thread queued its event (or added demand) in the same
    /// critical section; returns with the lock released.
    @inlinable
    package borrowing func serveLocked<Item>(
        me: UInt, lock: borrowing Lock, afterQueuing: Bool, queued: () -> Int, next: () -> DeliveryStep<Item>,
        deliver: (Item) -> Void
    ) {
        while true {
            let claim = claimQueuedLocked(me: me, afterQueuing: afterQueuing, queued: queued)
            if followLocked(claim, me: me, lock: lock, next: next, deliver: deliver) { return }
            lock.acquire()
        }
    }

    /// Under the owner's lock: who delivers, now that this thread has queued an event
    /// (`afterQueuing`) or added demand.
    @inlinable
    @inline(__always)
    borrowing func claimQueuedLocked(me: UInt, afterQueuing: Bool, queued: () -> Int) -> DeliveryClaim {
        let claim = claimLocked(me: me)
        guard case .busy = claim else { return claim }
        return afterQueuing ? contendLocked(me: me, queued: queued(), mayWait: true) : .queued
    }

    /// Entered with the owner's lock held, for an owner whose events wait in its queue: does
    /// what `claim` says and returns with the lock released — runs the delivery loop (nested,
    /// or as the outermost delivering thread), takes the role over and runs it, or leaves the
    /// events to the delivering thread. `false` when this thread waited for room: its event
    /// is queued, and it must claim again.
    @inlinable
    borrowing func followLocked<Item>(
        _ claim: DeliveryClaim, me: UInt, lock: borrowing Lock, next: () -> DeliveryStep<Item>,
        deliver: (Item) -> Void
    ) -> Bool {
        switch claim {
        case .nested, .outermost:
            driveLocked(outermost: claim.isOutermost, lock: lock, next: next, deliver: deliver)
        case .awaitRole(let ticket):
            lock.release()
            awaitRole(me: me, ticket: ticket)
            drive(outermost: true, lock: lock, next: next, deliver: deliver)
        case .awaitRoom(let ticket):
            lock.release()
            awaitRoom(ticket: ticket)  // woken for room, or by a hand-over of the role
            return false
        case .busy, .queued:
            lock.release()
        }
        return true
    }

    /// After the lock, for an owner that delivers the event it claimed the role for itself,
    /// not through its queue (``handOffLocked(_:to:seen:me:mayWait:)`` queued it otherwise):
    /// does what `claim` says — `deliverOwn` (nested, or as the outermost delivering thread,
    /// which then hands over what was queued meanwhile, ``releaseOrDrive(me:lock:next:deliver:)``),
    /// takes the role over and runs the delivery loop, or leaves the event to the delivering
    /// thread. `false` when this thread waited for room: nothing was queued, claim again.
    @inlinable
    @inline(__always)
    package borrowing func follow<Item>(
        _ claim: DeliveryClaim, me: UInt, lock: borrowing Lock, deliverOwn: () -> Void,
        next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) -> Bool {
        switch claim {
        case .nested:
            deliverOwn()
        case .outermost:
            deliverOwn()
            releaseOrDrive(me: me, lock: lock, next: next, deliver: deliver)
        case .awaitRole(let ticket):
            awaitRole(me: me, ticket: ticket)
            drive(outermost: true, lock: lock, next: next, deliver: deliver)
        case .awaitRoom(let ticket):
            awaitRoom(ticket: ticket)
            return false
        case .busy, .queued:
            break
        }
        return true
    }

    /// Under the owner's lock, for an owner whose backlog is bounded by other means (it never
    /// waits for room): whether this thread delivers now, and as what. When another thread is
    /// delivering, `queueIfBusy` queues this thread's event and returns how many are queued
    /// (`nil`: nothing was queued); this thread then takes the role over if the delivering
    /// thread has used its budget (`.tookOver`: it waited for the role with the lock released,
    /// and holds the lock again). `nil`: the delivering thread delivers.
    ///
    /// `takeOverNow` (read under the lock): the thread holding the role is handing the
    /// subscriber its subscription and must not deliver this owner's events itself (they
    /// belong on another thread, a scheduler's). The first thread to arrive meanwhile takes the
    /// role over when `receive(subscription:)` returns (the holder then gives it up with
    /// ``releaseLocked(queueEmpty:)``); those after it leave their events to that thread.
    @inlinable
    package borrowing func claimKeepingLock(
        me: UInt, lock: borrowing Lock, takeOverNow: Bool = false, queueIfBusy: () -> Int?
    ) -> HeldRole? {
        var claim = claimLocked(me: me)
        if case .busy = claim {
            guard let queued = queueIfBusy() else { return nil }
            claim = contendLocked(me: me, queued: queued, mayWait: false, takeOverNow: takeOverNow)
        }
        switch claim {
        case .nested:
            return .nested
        case .outermost:
            return .outermost
        case .awaitRole(let ticket):
            lock.release()
            awaitRole(me: me, ticket: ticket)
            lock.acquire()
            return .tookOver
        case .busy, .queued, .awaitRoom:
            return nil
        }
    }

    /// The front for a single delivery that neither queues nor waits (a timer's tick): entered
    /// with the owner's lock held. When nobody delivers, this thread takes the role, `take`
    /// (under the lock) says what to deliver (`nil`: nothing), `deliver` calls the subscriber
    /// after the lock, and `afterLocked` gets its answer back under the lock, where the role is
    /// given up. Returns with the lock released: `false` when a delivery was under way (on
    /// another thread, or this one from inside the subscriber), and nothing was taken.
    @inlinable
    package borrowing func deliverOnceLocked<Item, Answer>(
        me: UInt, lock: borrowing Lock, take: () -> Item?, deliver: (Item) -> Answer,
        afterLocked: (Answer) -> Void
    ) -> Bool {
        guard case .outermost = claimLocked(me: me) else {
            lock.release()
            return false
        }
        if let item = take() {
            lock.release()
            let answer = deliver(item)
            lock.acquire()
            afterLocked(answer)
        }
        releaseLocked(queueEmpty: true)
        lock.release()
        return true
    }
}
