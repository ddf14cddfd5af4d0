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

    /// After the delivering thread's own outermost call, without the lock: gives up the role
    /// with one compare-and-swap if nothing was queued meanwhile. `false`: run the delivery
    /// loop (``releaseOrDrive(me:lock:next:deliver:)`` does both).
    @inlinable
    borrowing func releaseIfIdle(me: UInt) -> Bool {
        interleavingPoint()
        return role.compareExchange(expected: me, desired: 0, ordering: .releasing).exchanged
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
}
