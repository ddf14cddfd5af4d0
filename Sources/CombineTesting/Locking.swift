import Synchronization

#if canImport(Darwin)
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
// `Mutex<Void>()` and `withLock` are the library's lock (CombineCore's `Lock`), which
// ThreadSanitizer is told about.
import CombineCore

extension Mutex where Value == Void {
    /// Runs `body` with the lock held, returning its result without `withLock`'s `sending`
    /// requirement (the guarded state lives in the owning class, not in the mutex).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        try withLock(body)
    }
}
#endif
