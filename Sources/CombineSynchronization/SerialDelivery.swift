// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The serial-delivery engine: makes the calls into one subscriber one at a time, whichever
/// threads the events come from. Every place that delivers to one subscriber from events that
/// may arrive on several threads keeps one (a subject's conduit, `QueuedDelivery` and the operators on
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
/// The engine runs the delivery loop itself (``drive(outermost:lock:next:deliver:)``): an owner
/// gives the next step under its lock and the call after it, nothing more; the fronts
/// (``serve(me:lock:afterQueuing:queued:queueLocked:next:deliver:)``,
/// ``follow(_:me:lock:deliverOwn:next:deliver:)``, ``claimKeepingLock(me:lock:takeOverNow:queueIfBusy:)``)
/// decide who runs it.
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
    @usableFromInline package let role: Atomic<UInt>
    /// The contended state (an unmanaged ``DeliveryWaiters``, as a bit pattern), or 0 until the
    /// first contended event; released by the owner's `deinit` (``releaseWaiters()``). Held
    /// unmanaged so that the per-event paths reach it without a retain and a release each (two
    /// atomic operations), and in an atomic word so that the engine has no mutable stored
    /// property: a thread waiting to take the role over reads it outside the lock, and any
    /// `mutating` access to the engine would be a (reported) access race with that read.
    @usableFromInline package let waitersWord: Atomic<UInt>

    @inlinable
    package init() {
        role = Atomic(0)
        waitersWord = Atomic(0)
    }

    @inlinable
    package var waiters: Unmanaged<DeliveryWaiters>? {
        let bits = waitersWord.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// Set in ``role`` by a thread that queued an event for the delivering thread.
    @inlinable
    package static var pendingBit: UInt { 1 }

    /// Debug builds: traps unless `me` can stand for a thread in ``role`` (not 0, lowest bit
    /// clear).
    @inlinable
    @inline(__always)
    package static func checkThreadID(_ me: UInt) {
        assert(
            me != 0 && me & pendingBit == 0,
            "SerialDelivery: a thread identity must be non-zero with its lowest bit clear (the role word marks queued events there)"
        )
    }

    /// Marks `me` as the delivering thread before anything can reach the owner (a subject
    /// conduit claims it before it is published: events sent meanwhile wait behind the
    /// subscription).
    @inlinable
    package borrowing func claimInitially(me: UInt) {
        Self.checkThreadID(me)
        interleavingPoint()
        role.store(me, ordering: .relaxed)
    }

    /// Whether `me` is calling the subscriber now (read under the owner's lock).
    @inlinable
    package borrowing func isDelivering(me: UInt) -> Bool {
        interleavingPoint()
        return role.load(ordering: .relaxed) & ~Self.pendingBit == me
    }

    /// Whether any thread is calling the subscriber now (read under the owner's lock).
    @inlinable
    package var isDeliveringLocked: Bool {
        interleavingPoint()
        return role.load(ordering: .relaxed) != 0
    }

    /// Under the owner's lock: who delivers an event that thread `me` has now.
    @inlinable
    package borrowing func claimLocked(me: UInt) -> DeliveryClaim {
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

    /// Without the lock: takes the role if nobody holds it (then nothing is queued either).
    /// For an owner whose delivering thread reads its state without the lock (a subject's
    /// conduit): every other claim of such an owner goes through ``claimRacingLocked(me:)``.
    @inlinable
    @inline(__always)
    package borrowing func claimIfIdle(me: UInt) -> Bool {
        Self.checkThreadID(me)
        interleavingPoint()
        return role.compareExchange(expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed)
            .exchanged
    }

    /// ``claimLocked(me:)`` for an owner whose role may also be taken without the lock
    /// (``claimIfIdle(me:)``): the role is taken with a compare-and-swap.
    @inlinable
    package borrowing func claimRacingLocked(me: UInt) -> DeliveryClaim {
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
    /// delivering; give it up with ``releaseLocked(queueEmpty:)``), `.nested` when this thread
    /// is the one delivering, `.queued` when another thread is: its role is marked, so that it
    /// takes the lock when its call returns instead of giving the role up without it.
    @inlinable
    package borrowing func claimOrMarkLocked(me: UInt) -> DeliveryClaim {
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
    package borrowing func contendLocked(me: UInt, queued: Int, mayWait: Bool, takeOverNow: Bool = false)
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
    package borrowing func claimQueuedLocked(me: UInt, afterQueuing: Bool, queued: () -> Int) -> DeliveryClaim {
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
    package borrowing func followLocked<Item>(
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

    /// After the outermost delivering thread's own call, for an owner whose other threads
    /// queue with ``handOffLocked(_:to:seen:me:mayWait:)`` (which marks the role): gives the
    /// role up with one compare-and-swap when nothing was queued meanwhile, without the
    /// lock; else runs the delivery loop.
    @inlinable
    @inline(__always)
    package borrowing func releaseOrDrive<Item>(
        me: UInt, lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        if releaseIfIdle(me: me) { return }
        driveOutOfLine(lock: lock, next: next, deliver: deliver)
    }

    /// The outermost delivery loop, kept out of the owner's uncontended path (which it would
    /// otherwise make longer: measured, 10 instructions per subject send).
    @inlinable
    @inline(never)
    package borrowing func driveOutOfLine<Item>(
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
    package borrowing func drive<Item>(
        outermost: Bool, lock: borrowing Lock, next: () -> DeliveryStep<Item>, deliver: (Item) -> Void
    ) {
        lock.acquire()
        driveLocked(outermost: outermost, lock: lock, next: next, deliver: deliver)
    }

    /// ``drive(outermost:lock:next:deliver:)`` entered with the owner's lock held (the caller
    /// claimed the role in the same critical section); returns with it released.
    @inlinable
    package borrowing func driveLocked<Item>(
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
    package borrowing func waitersLocked(queued: Int) -> DeliveryWaiters {
        if let waiters { return waiters.takeUnretainedValue() }
        let created = DeliveryWaiters()
        created.peak = queued
        waitersWord.store(UInt(bitPattern: Unmanaged.passRetained(created).toOpaque()), ordering: .releasing)
        return created
    }

    /// For the owner's `deinit`.
    @inlinable
    package borrowing func releaseWaiters() {
        waiters?.release()
    }

    /// After the delivering thread's own outermost call, without the lock: gives up the role
    /// with one compare-and-swap if nothing was queued meanwhile. `false`: run the delivery
    /// loop (``releaseOrDrive(me:lock:next:deliver:)`` does both).
    @inlinable
    package borrowing func releaseIfIdle(me: UInt) -> Bool {
        interleavingPoint()
        return role.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged
    }

    /// Under the owner's lock: whether a thread waits to take the role over (the outermost
    /// delivery loop then gives it up, ``releaseLocked(queueEmpty:)``, before its next event).
    @inlinable
    package var successorWaitingLocked: Bool {
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
    package borrowing func releaseLocked(queueEmpty: Bool) {
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

    /// Without the lock: waits until the delivering thread has handed over half the backlog
    /// or given up the role (`ticket` from `.awaitRoom`).
    @inlinable
    package borrowing func awaitRoom(ticket: UInt32) {
        waiters.unsafelyUnwrapped.takeUnretainedValue().wait(ticket: ticket)
    }

    /// Without the lock: waits until the delivering thread has handed the role to `me`
    /// (`ticket` from `.awaitRole`).
    @inlinable
    package borrowing func awaitRole(me: UInt, ticket: UInt32) {
        let waiters = self.waiters.unsafelyUnwrapped.takeUnretainedValue()
        var ticket = ticket
        interleavingPoint()
        while role.load(ordering: .acquiring) & ~Self.pendingBit != me {
            waiters.wait(ticket: ticket)
            ticket = waiters.ticket
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

/// The most events any subscriber's backlog has held at once since the last reset (see
/// ``SerialDelivery/peakBacklogSinceReset``).
private let processPeak = Atomic<Int>(0)

extension SerialDelivery {
    /// The most events any one subscriber's backlog has held at once, over the subscribers
    /// whose delivery ended (whose owner was released) since ``resetPeakBacklog()``, in the
    /// whole process (0 if none was contended): for the benchmarks, which report it beside
    /// the time of their contended scenarios.
    package static var peakBacklogSinceReset: Int { processPeak.load(ordering: .relaxed) }

    /// Starts ``peakBacklogSinceReset`` again from 0.
    package static func resetPeakBacklog() { processPeak.store(0, ordering: .relaxed) }
}

/// A subscription that delivers through a ``SerialDelivery``: how full its backlog has been,
/// for the stress tests.
package protocol SerialDeliveryOwner: AnyObject {
    /// The most events the backlog has held at once (0 if never contended).
    var peakBacklog: Int { get }
}

/// How a thread that delivers holds the role (``SerialDelivery/claimKeepingLock(me:lock:takeOverNow:queueIfBusy:)``).
@usableFromInline
package enum HeldRole {
    /// From inside the subscriber's own callback: deliver nested, and leave the role as it is.
    case nested
    /// It took the role: deliver, then what was queued meanwhile, then give the role up.
    case outermost
    /// It took the role over from a thread that used its budget: deliver what is queued,
    /// then give the role up.
    case tookOver

    /// Whether this thread gives the role up when done.
    @inlinable
    package var isOutermost: Bool {
        if case .nested = self { return false }
        return true
    }
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
package enum DeliveryClaim {
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
    package var isOutermost: Bool {
        if case .outermost = self { return true }
        return false
    }

    /// Whether this thread delivers its event now (nested or outermost).
    @inlinable
    package var deliversHere: Bool {
        switch self {
        case .nested, .outermost: true
        case .busy, .queued, .awaitRole, .awaitRoom: false
        }
    }
}

/// What a contended ``SerialDelivery`` needs besides its queue: the threads waiting on it,
/// the delivering thread's budget and the peak. Guarded by the owner's lock, except the word
/// waiting threads sleep on. Not generic: nothing here depends on the events.
@usableFromInline
package final class DeliveryWaiters: @unchecked Sendable {
    /// A thread whose event is queued and who takes the role over next, or 0.
    @usableFromInline @exclusivity(unchecked) package var successor: UInt = 0
    /// Queued events the delivering thread has handed over since it took the role.
    @usableFromInline @exclusivity(unchecked) package var taken = 0
    /// Threads waiting for room (``DeliveryClaim/awaitRoom(_:)``) since the last wake-up.
    @usableFromInline @exclusivity(unchecked) package var sleepers = 0
    /// The most events queued at once since the first contended event.
    @usableFromInline @exclusivity(unchecked) package var peak = 0
    /// Bumped by each wake-up; waiting threads sleep while it holds the value they read.
    @usableFromInline package let word = Atomic<UInt32>(0)

    @usableFromInline
    package init() {}

    /// Under the owner's lock, for a thread that found another delivering (`queued` events
    /// waiting): `.awaitRole` when the delivering thread has used its budget with events still
    /// queued and nobody has claimed the role yet (`me` does); `.awaitRoom` when the backlog
    /// holds `roomAt` events or more; `nil` otherwise.
    @usableFromInline
    package func waitLocked(me: UInt, queued: Int, roomAt limit: Int?, takeOverNow: Bool = false) -> DeliveryClaim? {
        if (taken >= SerialDelivery.Limits.budget || takeOverNow) && successor == 0 && queued > 0 {
            successor = me
            return .awaitRole(ticket)
        }
        if let limit, queued >= limit {
            sleepers += 1
            return .awaitRoom(ticket)
        }
        return nil
    }

    /// Under the owner's lock: an event was taken, `remaining` are left.
    @inlinable
    package func didTake(leaving remaining: Int) {
        taken &+= 1
        if sleepers > 0 && remaining <= SerialDelivery.Limits.backlog / 2 { wakeAll() }
    }

    /// Under the owner's lock: the delivering thread gives up the role. Returns the thread
    /// that takes it over (0: nobody); the caller hands it the role, then wakes the waiters.
    @inlinable
    package func release() -> UInt {
        let next = successor
        successor = 0
        taken = 0
        return next
    }

    /// Adds this subscriber's peak to the process-wide figure
    /// (``SerialDelivery/peakBacklogSinceReset``) when its delivery ends: the per-event path
    /// only keeps ``peak``.
    deinit {
        var seen = processPeak.load(ordering: .relaxed)
        while peak > seen {
            let (exchanged, found) = processPeak.compareExchange(expected: seen, desired: peak, ordering: .relaxed)
            if exchanged { break }
            seen = found
        }
    }

    /// The current value of the word; read it under the owner's lock before waiting.
    @inlinable
    package var ticket: UInt32 { word.load(ordering: .acquiring) }

    /// Threads asleep in the kernel on ``word``: a wake-up makes the system call only when
    /// there is one.
    @usableFromInline package let kernelSleepers = Atomic<Int>(0)

    /// Returns once the word no longer holds `ticket`. Spins briefly, then yields the
    /// processor for about as long as the delivering thread takes to hand half a backlog over
    /// (yielding, not spinning, so that with more threads than cores the delivering thread
    /// runs; a sleeping thread's wake-up costs two system calls and tens of microseconds of
    /// latency), then sleeps.
    @usableFromInline
    @inline(never)
    package func wait(ticket: UInt32) {
        #if DEBUG
        if Interleaving.isInstalled, Interleaving.block(until: { word.load(ordering: .acquiring) != ticket }) { return }
        #endif
        for _ in 0..<100 {
            if word.load(ordering: .acquiring) != ticket { return }
            spinPause()
        }
        for _ in 0..<100 {
            if word.load(ordering: .acquiring) != ticket { return }
            yieldProcessor()
        }
        // Announce the sleep before looking at the word a last time; ``wakeAll()`` bumps the
        // word before it looks at the count: one of the two sees the other.
        kernelSleepers.add(1, ordering: .sequentiallyConsistent)
        while word.load(ordering: .sequentiallyConsistent) == ticket {
            futexWait(address, ticket)
        }
        kernelSleepers.subtract(1, ordering: .relaxed)
    }

    /// Bumps the word and wakes every thread sleeping on it (and forgets the sleepers).
    @usableFromInline
    @inline(never)
    package func wakeAll() {
        sleepers = 0
        interleavingPoint()
        word.add(1, ordering: .sequentiallyConsistent)
        if kernelSleepers.load(ordering: .sequentiallyConsistent) > 0 { futexWakeAll(address) }
    }

    private var address: UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }
}
