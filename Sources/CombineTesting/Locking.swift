import Synchronization

extension Mutex where Value == Void {
    /// Runs `body` with the lock held, returning its result without `withLock`'s `sending`
    /// requirement (the guarded state lives in the owning class, not in the mutex).
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        _unsafeLock()
        defer { _unsafeUnlock() }
        return try body()
    }
}
