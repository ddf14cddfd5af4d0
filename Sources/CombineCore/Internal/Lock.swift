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
    /// subscriber out of the lock then costs an allocation.
    @inlinable
    borrowing func withLock<R>(_ body: () throws -> R) rethrows -> R {
        _unsafeLock()
        defer { _unsafeUnlock() }
        return try body()
    }
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
