import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock of the library: a `Mutex` that guards the stored properties of the class
/// that owns it. Every class that uses it is `@unchecked Sendable` and touches its mutable
/// state only inside `withLock`; nothing calls out (downstream, upstream, user closures)
/// while holding it.
@usableFromInline
typealias Lock = Mutex<Void>

extension Mutex where Value == Void {
    /// Creates an unlocked lock.
    @inlinable
    init() { self.init(()) }

    /// Runs `body` with the lock held.
    ///
    /// Built on the mutex's own lock and unlock rather than on `Mutex.withLock`, whose
    /// `sending` result forces a copy of the result through a box: returning a closure or a
    /// subscriber out of the lock then costs an allocation. Always inlined: a call left in
    /// unspecialised generic code (a `cancel()` reached through `any Cancellable`) would have
    /// to look up the metadata of its result type — a tuple or optional of generic types —
    /// on every call.
    @inlinable
    @inline(__always)
    borrowing func withLock<R>(_ body: () throws -> R) rethrows -> R {
        _unsafeLock()
        defer { _unsafeUnlock() }
        return try body()
    }
}

extension Mutex where Value == Void {
    /// Takes the lock; pair with ``release()``. For paths that run unspecialised (reached
    /// through `any Subscription` or `any Cancellable`) and move generic values out of the
    /// critical section one by one, without a closure result to describe.
    @inlinable
    @inline(__always)
    borrowing func acquire() { _unsafeLock() }

    /// Releases the lock taken by ``acquire()``.
    @inlinable
    @inline(__always)
    borrowing func release() { _unsafeUnlock() }
}

/// Identifies the current thread, to tell a re-entrant call from a concurrent one.
@inlinable
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// Where a subscriber stands with its subscription. Not nested in a generic subscriber, so
/// code that runs unspecialised (a `cancel()` reached through `any Cancellable`) can store and
/// read it without looking up metadata.
@usableFromInline
enum SubscriberStatus {
    case awaitingSubscription
    case subscribed(Subscription)
    case terminal
}
