import Synchronization

#if !canImport(Darwin)
// On Linux the core library's lock extension (`Mutex<Void>()`, `withLock` without
// `sending`) is used, so ThreadSanitizer is told about every acquire and release.
import CombineCore
#endif

/// The lock of CombineExtras: a non-recursive mutex guarding state that lives in the owning
/// object. Never call out (to a subscriber, a subscription or user code) while holding it.
typealias Lock = Mutex<Void>

#if canImport(Darwin)
extension Mutex where Value == Void {
    /// Creates an unlocked lock.
    init() { self.init(()) }

    /// Runs `body` with the lock held and returns its result (the guarded state lives in the
    /// owning class, so `withLock`'s `sending` requirement does not apply).
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        _unsafeLock()
        defer { _unsafeUnlock() }
        return try body()
    }
}
#endif
