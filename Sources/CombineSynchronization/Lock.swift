// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(WASILibc)
import WASILibc
#elseif canImport(WinSDK)
import WinSDK
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock of the library: a non-recursive mutex that guards the stored properties of
/// the class that owns it. Every class that uses it is `@unchecked Sendable` and touches its
/// mutable state only inside `withLock` (or between `acquire()` and `release()`); nothing
/// calls out (downstream, upstream, user closures) while holding it.
///
/// One 32-bit word: 0 unlocked, 1 locked, 2 locked and a thread may be sleeping on it. Taking
/// and giving up the lock are atomic operations compiled in this module (an acquiring
/// compare-and-swap, a releasing exchange), so a program built with `--sanitize=thread` sees
/// every hand-off as it happens and reports no race on the state the lock guards, with no
/// flag or annotation. (The standard library's `Mutex` hands over inside its own compiled
/// code, which the sanitizer does not see.) A thread that finds the lock taken spins briefly,
/// then sleeps on the word (`futex`) until the holder wakes it.
@usableFromInline
package struct Lock: ~Copyable, Sendable {
    @usableFromInline
    package let word: Atomic<UInt32>

    /// Creates an unlocked lock.
    @inlinable
    package init() {
        word = Atomic(0)
    }

    /// Runs `body` with the lock held.
    ///
    /// Returns the body's result directly (no `sending` box as `Mutex.withLock` needs), so
    /// returning a closure or a subscriber out of the lock costs no allocation. Always
    /// inlined: a call left in unspecialised generic code (a `cancel()` reached through
    /// `any Cancellable`) would have to look up the metadata of its result type on every call.
    @inlinable
    @inline(__always)
    package borrowing func withLock<R>(_ body: () throws -> R) rethrows -> R {
        acquire()
        defer { release() }
        return try body()
    }

    /// Takes the lock; pair with ``release()``. For paths that run unspecialised (reached
    /// through `any Subscription` or `any Cancellable`) and move generic values out of the
    /// critical section one by one, without a closure result to describe.
    @inlinable
    @inline(__always)
    package borrowing func acquire() {
        #if DEBUG
        if _slowPath(Interleaving.isInstalled), acquireExplored() { return }
        #endif
        if _slowPath(
            !word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                .exchanged)
        {
            acquireContended()
        }
    }

    /// Releases the lock taken by ``acquire()``.
    @inlinable
    @inline(__always)
    package borrowing func release() {
        interleavingPoint()
        if _slowPath(word.exchange(0, ordering: .releasing) == 2) {
            wakeOne()
        }
    }

    /// The lock was taken: spin a little (critical sections here are a few dozen
    /// instructions), then mark the word as having a sleeper and sleep until it is given up.
    ///
    /// The spin backs off exponentially: it looks at the word after 1, 2, 4, … 64 pauses (127
    /// in all, 7 looks). The word shares its cache line with the state it guards, so each look
    /// takes the line from the holder, whose next write must take it back; looking after every
    /// pause (100 looks) made four threads sending into one subject on two cores about twice
    /// as slow (about 350 against 180 ns per send, `Benchmarks`' contended rows).
    @usableFromInline
    @inline(never)
    package borrowing func acquireContended() {
        var pauses = 1
        for _ in 0..<7 {
            for _ in 0..<pauses { spinPause() }
            if word.load(ordering: .relaxed) == 0,
                word.compareExchange(expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed)
                    .exchanged
            {
                return
            }
            pauses &*= 2
        }
        // Taking it as 2 rather than 1 is deliberate: another thread may still be asleep on
        // the word, and the holder of a 2 wakes one sleeper when it lets go.
        while word.exchange(2, ordering: .acquiring) != 0 {
            futexWait(address, 2)
        }
    }

    #if DEBUG
    /// Debug builds, for the interleaving explorer: on an explored thread, takes the lock with a
    /// point before each attempt, and waits for a holder to give it up by telling the explorer
    /// (`true`); any other thread: `false` (take it as usual).
    @usableFromInline
    @inline(never)
    package borrowing func acquireExplored() -> Bool {
        guard let hooks = Interleaving.hooksOfThisThread else { return false }
        let word = withUnsafePointer(to: self.word) { $0 }
        hooks.point()
        while !word.pointee.compareExchange(
            expected: 0, desired: 1, successOrdering: .acquiring, failureOrdering: .relaxed
        )
        .exchanged {
            hooks.block { word.pointee.load(ordering: .relaxed) == 0 }
        }
        return true
    }
    #endif

    /// Wakes one thread sleeping on the word.
    @usableFromInline
    @inline(never)
    package borrowing func wakeOne() {
        futexWakeOne(address)
    }

    /// The word's address, for the kernel. The lock cannot be copied, so a borrow of it is its
    /// storage in the owning object.
    private var address: UnsafeMutablePointer<UInt32> {
        withUnsafePointer(to: word) { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt32.self) }
    }
}

/// Identifies the current thread, to tell a re-entrant call from a concurrent one: a number
/// no other running thread has at the same time.
@inlinable
package func currentThreadID() -> UInt {
    #if canImport(Glibc)
    return UInt(pthread_self())  // an integer (`unsigned long`)
    #elseif canImport(WinSDK)
    return UInt(GetCurrentThreadId())
    #else
    // A pointer on Darwin, musl and WASI, a signed integer on Android: its bits identify it.
    return UInt(bitPattern: pthread_self())
    #endif
}

/// Which of `count` stripes (a power of two) the current thread uses, for state split into
/// stripes so that threads of unrelated work rarely share a lock: the thread's identity mixed
/// by a multiplication (its low bits alone are alike for every thread: glibc places thread
/// descriptors a stack's size apart).
@inlinable
package func currentThreadStripe(of count: Int) -> Int {
    threadStripe(of: currentThreadID(), count: count)
}

/// Which of `count` stripes (a power of two) the thread `thread` (a ``currentThreadID()``) uses.
@inlinable
package func threadStripe(of thread: UInt, count: Int) -> Int {
    let mixed = thread &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
    return Int(truncatingIfNeeded: mixed >> (UInt.bitWidth / 2)) & (count - 1)
}

/// `count` locks in one allocation, each on a cache line of its own, for state split into
/// stripes (a lock per stripe, the stripe's state guarded by it): reaching a stripe's lock costs
/// no reference count, and two threads on different stripes share no cache line.
package final class LockStripes: @unchecked Sendable {
    /// A lock padded to 64 bytes.
    @usableFromInline
    struct Padded: ~Copyable {
        @usableFromInline let lock = Lock()
        private let padding: (UInt32, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    package let count: Int
    @usableFromInline let locks: UnsafeMutablePointer<Padded>

    /// Makes `count` unlocked locks (a power of two).
    package init(count: Int) {
        if count <= 0 || count & (count - 1) != 0 { fatalError("LockStripes: count must be a power of two") }
        self.count = count
        locks = .allocate(capacity: count)
        for index in 0..<count { (locks + index).initialize(to: Padded()) }
    }

    deinit {
        locks.deinitialize(count: count)
        locks.deallocate()
    }

    /// Runs `body` holding the lock of stripe `index`.
    @inlinable
    @inline(__always)
    package func withLock<R>(_ index: Int, _ body: () throws -> R) rethrows -> R {
        try locks[index].lock.withLock(body)
    }
}
