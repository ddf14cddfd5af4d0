// SPDX-License-Identifier: Apache-2.0
import Synchronization

// What only contended deliveries need: the threads waiting for room or for the role, the
// delivering thread's budget, and the peak of the backlog.

extension SerialDelivery {
    /// Without the lock: waits until the delivering thread has handed over half the backlog
    /// or given up the role (`ticket` from `.awaitRoom`).
    @inlinable
    borrowing func awaitRoom(ticket: UInt32) {
        waiters.unsafelyUnwrapped.takeUnretainedValue().wait(ticket: ticket)
    }

    /// Without the lock: waits until the delivering thread has handed the role to `me`
    /// (`ticket` from `.awaitRole`).
    @inlinable
    borrowing func awaitRole(me: UInt, ticket: UInt32) {
        let waiters = self.waiters.unsafelyUnwrapped.takeUnretainedValue()
        var ticket = ticket
        interleavingPoint()
        while role.load(ordering: .acquiring) & ~Self.pendingBit != me {
            waiters.wait(ticket: ticket)
            ticket = waiters.ticket
        }
    }
}

/// The most events any subscriber's backlog has held at once since the last reset (see
/// ``DeliveryWaiters/peakBacklogSinceReset``).
private let processPeak = Atomic<Int>(0)

extension DeliveryWaiters {
    /// The most events any one subscriber's backlog has held at once, over the subscribers
    /// whose delivery ended (whose owner was released) since ``resetPeakBacklog()``, in the
    /// whole process (0 if none was contended): for the benchmarks, which report it beside
    /// the time of their contended scenarios. Kept here, with the contended state that
    /// reports each engine's peak to it, not on the engine: it is about all of them.
    package static var peakBacklogSinceReset: Int { processPeak.load(ordering: .relaxed) }

    /// Starts ``peakBacklogSinceReset`` again from 0.
    package static func resetPeakBacklog() { processPeak.store(0, ordering: .relaxed) }
}

/// What a contended ``SerialDelivery`` needs besides its queue: the threads waiting on it,
/// the delivering thread's budget and the peak. Guarded by the owner's lock, except the word
/// waiting threads sleep on. Not generic: nothing here depends on the events.
@usableFromInline
package final class DeliveryWaiters: @unchecked Sendable {
    /// A thread whose event is queued and who takes the role over next, or 0.
    @usableFromInline @exclusivity(unchecked) var successor: UInt = 0
    /// Queued events the delivering thread has handed over since it took the role.
    @usableFromInline @exclusivity(unchecked) package var taken = 0
    /// Threads waiting for room (``DeliveryClaim/awaitRoom(_:)``) since the last wake-up.
    @usableFromInline @exclusivity(unchecked) var sleepers = 0
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
    func waitLocked(me: UInt, queued: Int, roomAt limit: Int?, takeOverNow: Bool = false) -> DeliveryClaim? {
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
    func didTake(leaving remaining: Int) {
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
    /// (``DeliveryWaiters/peakBacklogSinceReset``) when its delivery ends: the per-event path
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
    @usableFromInline let kernelSleepers = Atomic<Int>(0)

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
    func wakeAll() {
        sleepers = 0
        interleavingPoint()
        word.add(1, ordering: .sequentiallyConsistent)
        if kernelSleepers.load(ordering: .sequentiallyConsistent) > 0 { futexWakeAll(address) }
    }

    private var address: UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }
}
