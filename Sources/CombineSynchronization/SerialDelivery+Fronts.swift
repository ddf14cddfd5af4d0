// SPDX-License-Identifier: Apache-2.0
import Synchronization

// The fronts: how a thread with an event decides, under the owner's lock, whether it delivers
// (nested, or as the outermost delivering thread), leaves the event to the thread delivering
// now, takes the role over from it, or waits for room; and then does so. ARCHITECTURE.md, "The
// driver: one delivery loop".

extension SerialDelivery {
    /// Under the owner's lock, for an owner that queues its events first (``appendLocked(_:to:)``)
    /// and then asks who delivers them: after ``claimLocked(me:)`` answered `.busy`, whether
    /// `me` leaves them to the delivering thread (`.queued`), takes the role over from it
    /// (`.awaitRole`, as in ``handOffLocked(seen:me:mayWait:queued:enqueue:)``) or, having just queued
    /// beyond the limit (`mayWait`), waits for room (`.awaitRoom`; then returns, its event
    /// being queued already).
    ///
    /// `takeOverNow`: the thread holding the role is handing the subscriber its subscription
    /// (``deliverOnce(me:lock:evenIfBusy:beginLocked:call:endLocked:next:deliver:)``): the first thread
    /// to arrive then waits to take the role over at once, budget or not.
    @usableFromInline
    @inline(never)
    borrowing func contendLocked(me: UInt, queued: Int, mayWait: Bool, takeOverNow: Bool = false)
        -> DeliveryClaim
    {
        waitersLocked(queued: queued).waitLocked(
            me: me, queued: queued, roomAt: mayWait ? Limits.backlog + 1 : nil, takeOverNow: takeOverNow)
            ?? .queued
    }

    /// The queue-first front, for an owner that queues its events before delivering them
    /// (`afterQueuing`: this thread has just queued one, ``appendLocked(_:to:)``) or that only
    /// added demand, in the same critical section of its lock (held on entry, released on
    /// return): decides who delivers, and does what the rules say (``followLocked(_:me:lock:next:deliver:)``),
    /// claiming again after waiting for room. The owner takes its lock once for queuing,
    /// claiming and the first step of the delivery loop.
    ///
    /// - `mayWait`: a thread that has just queued beyond ``Limits/backlog`` waits for room.
    ///   `false` for an owner whose backlog is bounded by other means (a buffer's strategy, the
    ///   actions a scheduler runs), or whose thread must not block (a scheduler's action).
    /// - `takeOverNow` (read under the lock): the thread holding the role is handing the
    ///   subscriber its subscription and must not deliver this owner's events itself (they
    ///   belong on another thread, a scheduler's): the first thread to queue meanwhile waits
    ///   to take the role over once `receive(subscription:)` returns
    ///   (``deliverOnce(me:lock:evenIfBusy:beginLocked:call:endLocked:next:deliver:)``), budget
    ///   or not; those after it leave their events to that thread.
    @inlinable
    package borrowing func serveLocked<Item>(
        me: UInt, lock: borrowing Lock, afterQueuing: Bool, mayWait: Bool = true, takeOverNow: Bool = false,
        queued: () -> Int, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        while true {
            var claim = claimLocked(me: me)
            if case .busy = claim {
                claim =
                    afterQueuing
                    ? contendLocked(me: me, queued: queued(), mayWait: mayWait, takeOverNow: takeOverNow) : .queued
            }
            if followLocked(claim, me: me, lock: lock, next: next, deliver: deliver) { return }
            lock.acquire()
        }
    }

    /// The own-first front, for an owner that would rather call the subscriber with this
    /// thread's event at once than queue it (its next value when nothing is queued ahead and
    /// there is demand for it). Entered with the owner's lock held; returns with it released.
    ///
    /// When this thread may call the subscriber now (nobody else delivers, or it is inside the
    /// subscriber's own callback), `takeOwn` (under the lock) gives what to deliver here, or
    /// `nil` to queue it after all; `deliverOwn` calls the subscriber after the lock, and the
    /// outermost delivering thread then delivers what was queued meanwhile. When another
    /// thread delivers, `enqueueOwn` queues the event for it — after waiting for room first
    /// when the backlog is full and `mayWait` (then everything is asked again: the owner's
    /// closures look at its state each time, which may have ended meanwhile), or taking the
    /// role over when that thread has used its budget. Returns the answer of `deliverOwn`, or
    /// `nil` when the event was queued.
    @inlinable
    package borrowing func deliverOwnLocked<Own, Answer, Item>(
        me: UInt, lock: borrowing Lock, mayWait: Bool, takeOwn: () -> Own?, enqueueOwn: () -> Void,
        queued: () -> Int, deliverOwn: (Own) -> Answer, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) -> Answer? {
        while true {
            let claim = claimLocked(me: me)
            if case .busy = claim {
                // Room first, so that the backlog stays within its limit: this event is not queued yet.
                let count = queued()
                let wait = waitersLocked(queued: count).waitLocked(
                    me: me, queued: count, roomAt: mayWait ? Limits.backlog : nil)
                if case .awaitRoom(let ticket) = wait {
                    lock.release()
                    awaitRoom(ticket: ticket)
                    lock.acquire()
                    continue
                }
                enqueueOwn()
                _ = followLocked(wait ?? .queued, me: me, lock: lock, next: next, deliver: deliver)
                return nil
            }
            guard let own = takeOwn() else {
                enqueueOwn()
                driveLocked(outermost: claim.isOutermost, lock: lock, next: next, deliver: deliver)
                return nil
            }
            lock.release()
            let answer = deliverOwn(own)
            if claim.isOutermost { drive(outermost: true, lock: lock, next: next, deliver: deliver) }
            return answer
        }
    }

    /// The one-shot front: a single call into the subscriber, made holding the role when
    /// nobody else delivers — a timer's tick, or handing the subscriber its subscription (so
    /// that no event reaches it before `receive(subscription:)` returns). Takes the owner's
    /// lock and claims; `beginLocked(holding)` then says what to call (`nil`: nothing), where
    /// `holding` tells whether this thread took the role for it. `call` makes the call after the
    /// lock; holding the role, `endLocked` gets its answer back under the lock and the
    /// delivery loop runs: it delivers what other threads queued meanwhile, or gives the role to
    /// the thread waiting to take it over (``serveLocked(me:lock:afterQueuing:mayWait:takeOverNow:queued:next:deliver:)``'s
    /// `takeOverNow`).
    ///
    /// When a delivery is under way (on another thread, or on this one from inside the
    /// subscriber), `evenIfBusy` says whether to make the call anyway, without the role (a
    /// subscription handed down) or to do nothing (a tick, which is dropped). Returns whether
    /// the call was made.
    @inlinable
    package borrowing func deliverOnce<Target, Answer, Item>(
        me: UInt, lock: borrowing Lock, evenIfBusy: Bool, beginLocked: (_ holding: Bool) -> Target?,
        call: (Target) -> Answer, endLocked: (Answer) -> Void, next: () -> DeliveryStep<Item>,
        deliver: (Item) -> Void
    ) -> Bool {
        lock.acquire()
        let holding = claimLocked(me: me).isOutermost
        guard holding || evenIfBusy, let target = beginLocked(holding) else {
            if holding { releaseLocked(queueEmpty: true) }
            lock.release()
            return false
        }
        lock.release()
        let answer = call(target)
        guard holding else { return true }
        lock.acquire()
        endLocked(answer)
        driveLocked(outermost: true, lock: lock, next: next, deliver: deliver)
        return true
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
    /// not through its queue (``handOffLocked(seen:me:mayWait:queued:enqueue:)`` queued it otherwise):
    /// does what `claim` says — `deliverOwn` (nested, or as the outermost delivering thread,
    /// which then hands over what was queued meanwhile, ``releaseOrDrive(me:lock:next:deliver:)``),
    /// takes the role over and runs the delivery loop, or leaves the event to the delivering
    /// thread. `false` when this thread waited for room: nothing was queued, claim again.
    @inlinable
    @inline(__always)
    borrowing func follow<Item>(
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
}
