internal import CombineFutex
import Synchronization

/// The serial-delivery engine: makes the calls into one subscriber one at a time, whichever
/// threads the events come from. Every place that delivers to one subscriber from events that
/// may arrive on several threads keeps one (a subject's conduit, `FanIn` and the operators on
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
/// The engine keeps no lock of its own: its state is changed under the owner's lock (the
/// methods whose names end in `Locked`), so that the owner's demand and the backlog change
/// together. The backlog is allocated at the first contended event: the uncontended path
/// reads ``role`` once, takes it and gives it up with one compare-and-swap.
@usableFromInline
struct SerialDelivery<Event>: ~Copyable {
    /// The thread calling into the subscriber now (its id, whose lowest bit is always 0), or
    /// 0; with ``pendingBit`` set while the backlog holds events for it. Changed under the
    /// owner's lock, except by the delivering thread's compare-and-swap back to 0 when nothing
    /// was queued (``releaseIfIdle(me:)``), which saves it taking the lock a second time.
    @usableFromInline let role: Atomic<UInt>
    /// Events queued for the delivering thread; allocated at the first contended event.
    @usableFromInline var backlog: DeliveryBacklog<Event>?

    @inlinable
    init() {
        role = Atomic(0)
    }

    /// Set in ``role`` by a thread that queued an event for the delivering thread.
    @inlinable
    static var pendingBit: UInt { 1 }

    /// Marks `me` as the delivering thread before anything can reach the owner (a subject
    /// conduit claims it before it is published: events sent meanwhile wait behind the
    /// subscription).
    @inlinable
    borrowing func claimInitially(me: UInt) {
        role.store(me, ordering: .relaxed)
    }

    /// Whether `me` is calling the subscriber now (read under the owner's lock).
    @inlinable
    borrowing func isDelivering(me: UInt) -> Bool {
        role.load(ordering: .relaxed) & ~Self.pendingBit == me
    }

    /// Under the owner's lock: who delivers an event that thread `me` has now.
    @inlinable
    borrowing func claimLocked(me: UInt) -> DeliveryClaim {
        let current = role.load(ordering: .acquiring)
        if current & ~Self.pendingBit == me { return .nested }
        if current == 0 {
            role.store(me, ordering: .relaxed)
            return .outermost
        }
        return .busy(current)
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
    @inlinable
    mutating func handOffLocked(_ event: Event, seen: UInt, me: UInt, mayWait: Bool) -> DeliveryClaim {
        let backlog = backlogLocked()
        if let wait = backlog.waitLocked(me: me, roomAt: mayWait ? Limits.backlog : nil) {
            if case .awaitRole = wait { backlog.append(event) }
            return wait
        }
        var expected = seen
        while expected != 0 {
            let (exchanged, found) = role.compareExchange(
                expected: expected, desired: expected | Self.pendingBit, ordering: .acquiringAndReleasing)
            if exchanged {
                backlog.append(event)
                return .queued
            }
            expected = found
        }
        role.store(me, ordering: .relaxed)
        return .outermost
    }

    /// Under the owner's lock, for an owner that queues its events first (``appendLocked(_:)``)
    /// and then asks who delivers them: after ``claimLocked(me:)`` answered `.busy`, whether
    /// `me` leaves them to the delivering thread (`.queued`), takes the role over from it
    /// (`.awaitRole`, as in ``handOffLocked(_:seen:me:mayWait:)``) or, having just queued
    /// beyond the limit (`mayWait`), waits for room (`.awaitRoom`; then returns, its event
    /// being queued already).
    @inlinable
    mutating func contendLocked(me: UInt, mayWait: Bool) -> DeliveryClaim {
        guard let backlog else { return .queued }
        return backlog.waitLocked(me: me, roomAt: mayWait ? Limits.backlog + 1 : nil) ?? .queued
    }

    /// Under the owner's lock: queues `event` behind the others, whoever delivers it.
    @inlinable
    mutating func appendLocked(_ event: Event) {
        backlogLocked().append(event)
    }

    @inlinable
    mutating func backlogLocked() -> DeliveryBacklog<Event> {
        if let backlog { return backlog }
        let created = DeliveryBacklog<Event>()
        backlog = created
        return created
    }

    /// After the delivering thread's own outermost call, without the lock: gives up the role
    /// with one compare-and-swap if nothing was queued meanwhile. `false`: take the lock and
    /// call ``nextLocked(me:)`` (or ``releaseLocked()``).
    @inlinable
    borrowing func releaseIfIdle(me: UInt) -> Bool {
        role.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged
    }

    /// Whether the backlog holds events (under the owner's lock).
    @inlinable
    var hasBacklogLocked: Bool {
        guard let backlog else { return false }
        return !backlog.queue.isEmpty
    }

    /// How many events the backlog holds (under the owner's lock).
    @inlinable
    var backlogCountLocked: Int {
        backlog?.queue.count ?? 0
    }

    /// Under the owner's lock: whether a thread waits to take the role over (the outermost
    /// delivery loop then gives it up, ``releaseLocked()``, before its next event).
    @inlinable
    var successorWaitingLocked: Bool {
        guard let backlog else { return false }
        return backlog.successor != 0
    }

    /// Under the owner's lock, in the delivering thread's loop: the next queued event, or
    /// `nil` when the role was given up — handed to a thread waiting to take over, or
    /// released because the backlog is empty.
    @inlinable
    mutating func nextLocked() -> Event? {
        if successorWaitingLocked {
            releaseLocked()
            return nil
        }
        guard let event = takeLocked() else {
            releaseLocked()
            return nil
        }
        return event
    }

    /// Under the owner's lock: takes the oldest queued event for delivery (counted against
    /// the delivering thread's budget; wakes the threads waiting for room once half of the
    /// backlog is handed over).
    @inlinable
    mutating func takeLocked() -> Event? {
        guard let backlog, let event = backlog.queue.popFirst() else { return nil }
        backlog.taken &+= 1
        if backlog.sleepers > 0 && backlog.queue.count <= Limits.backlog / 2 { backlog.wakeSleepers() }
        return event
    }

    /// Under the owner's lock: the delivering thread gives up the role — to the thread waiting
    /// to take over, if there is one, else to nobody (waking the threads waiting for room).
    @inlinable
    mutating func releaseLocked() {
        guard let backlog else {
            role.store(0, ordering: .releasing)
            return
        }
        if backlog.successor != 0 {
            handOverLocked(backlog)
            return
        }
        backlog.taken = 0
        role.store(0, ordering: .releasing)
        if backlog.sleepers > 0 { backlog.wakeSleepers() }
    }

    @usableFromInline
    borrowing func handOverLocked(_ backlog: DeliveryBacklog<Event>) {
        let next = backlog.successor
        backlog.successor = 0
        backlog.taken = 0
        role.store(backlog.queue.isEmpty ? next : next | Self.pendingBit, ordering: .releasing)
        backlog.wakeSleepers()
    }

    /// Under the owner's lock: empties the backlog (a completion or a cancel ends the
    /// delivery), returning what it held for the caller to release after the lock.
    @inlinable
    mutating func dropBacklogLocked() -> RingQueue<Event>? {
        guard let backlog, !backlog.queue.isEmpty else { return nil }
        var dropped = RingQueue<Event>()
        swap(&dropped, &backlog.queue)
        return dropped
    }

    /// Without the lock: waits until the delivering thread has handed over half the backlog
    /// or given up the role (`ticket` from `.awaitRoom`).
    @inlinable
    borrowing func awaitRoom(ticket: UInt32) {
        backlog.unsafelyUnwrapped.signal.wait(ticket: ticket)
    }

    /// Without the lock: waits until the delivering thread has handed the role to `me`
    /// (`ticket` from `.awaitRole`).
    @inlinable
    borrowing func awaitRole(me: UInt, ticket: UInt32) {
        let signal = backlog.unsafelyUnwrapped.signal
        var ticket = ticket
        while role.load(ordering: .acquiring) & ~Self.pendingBit != me {
            signal.wait(ticket: ticket)
            ticket = signal.ticket
        }
    }

    /// The most events the backlog has held at once (0 if never contended): for the stress
    /// tests and benchmarks.
    var peakBacklogLocked: Int {
        backlog?.peak ?? 0
    }

    /// The engine's limits, per subscriber.
    @usableFromInline
    enum Limits {
        /// Events queued for the delivering thread before a sender waits for room. The
        /// backlog never holds more than this plus two (a completion and the event of the
        /// thread taking over are queued whatever the count).
        @inlinable static var backlog: Int { 1024 }
        /// Queued events the delivering thread hands over before the next thread to arrive
        /// takes over from it.
        @inlinable static var budget: Int { 1024 }
    }
}

/// A subscription that delivers through a ``SerialDelivery``: how full its backlog has been,
/// for the stress tests.
protocol SerialDeliveryOwner: AnyObject {
    /// The most events the backlog has held at once (0 if never contended).
    var peakBacklog: Int { get }
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
}

/// The queue of a contended ``SerialDelivery`` and what the threads waiting on it need;
/// guarded by the owner's lock, except ``signal``.
@usableFromInline
final class DeliveryBacklog<Event> {
    @usableFromInline @exclusivity(unchecked) var queue = RingQueue<Event>()
    /// A thread whose event is queued and who takes the role over next, or 0.
    @usableFromInline @exclusivity(unchecked) var successor: UInt = 0
    /// Queued events the delivering thread has handed over since it took the role.
    @usableFromInline @exclusivity(unchecked) var taken = 0
    /// Threads waiting for room (``DeliveryClaim/awaitRoom(_:)``) since the last wake-up.
    @usableFromInline @exclusivity(unchecked) var sleepers = 0
    @usableFromInline @exclusivity(unchecked) var peak = 0
    @usableFromInline let signal = DeliverySignal()

    @inlinable
    init() {}

    /// Under the owner's lock, for a thread that found another delivering: `.awaitRole` when
    /// the delivering thread has used its budget with events still queued and nobody has
    /// claimed the role yet (`me` does); `.awaitRoom` when the backlog holds `roomAt` events
    /// or more; `nil` otherwise.
    @inlinable
    func waitLocked(me: UInt, roomAt limit: Int?) -> DeliveryClaim? {
        if taken >= SerialDelivery<Event>.Limits.budget && successor == 0 && !queue.isEmpty {
            successor = me
            return .awaitRole(signal.ticket)
        }
        if let limit, queue.count >= limit {
            sleepers += 1
            return .awaitRoom(signal.ticket)
        }
        return nil
    }

    @inlinable
    func append(_ event: Event) {
        queue.append(event)
        if queue.count > peak { peak = queue.count }
    }

    @inlinable
    func wakeSleepers() {
        sleepers = 0
        signal.wakeAll()
    }
}

/// A word that waiting threads sleep on until it changes: each wake-up bumps it.
@usableFromInline
final class DeliverySignal: Sendable {
    @usableFromInline let word = Atomic<UInt32>(0)

    @inlinable
    init() {}

    /// The current value; read it under the owner's lock before waiting.
    @inlinable
    var ticket: UInt32 { word.load(ordering: .acquiring) }

    /// Returns once the word no longer holds `ticket`: spins a little, then sleeps.
    @usableFromInline
    @inline(never)
    func wait(ticket: UInt32) {
        for _ in 0..<200 {
            if word.load(ordering: .acquiring) != ticket { return }
            combine_spin_pause()
        }
        while word.load(ordering: .acquiring) == ticket {
            combine_futex_wait(address, ticket)
        }
    }

    /// Bumps the word and wakes every thread sleeping on it.
    @usableFromInline
    @inline(never)
    func wakeAll() {
        word.add(1, ordering: .releasing)
        combine_futex_wake_all(address)
    }

    private var address: UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }
}
