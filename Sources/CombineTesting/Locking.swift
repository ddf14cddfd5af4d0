#if canImport(Darwin)
import Synchronization

/// The lock of CombineTesting: a non-recursive mutex guarding state that lives in the owning
/// object.
typealias Lock = Mutex<Void>

extension Mutex where Value == Void {
    /// Creates an unlocked lock.
    init() { self.init(()) }

    /// Runs `body` with the lock held, returning its result without `withLock`'s `sending`
    /// requirement (the guarded state lives in the owning class, not in the mutex).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        _unsafeLock()
        defer { _unsafeUnlock() }
        return try body()
    }
}
#else
import CombineCore

/// The lock of CombineTesting: the library's own lock, whose hand-offs ThreadSanitizer sees.
typealias Lock = CombineCore.Lock

extension CombineCore.Lock {
    /// Runs `body` with the lock held and returns its result.
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        try withLock(body)
    }
}
#endif
