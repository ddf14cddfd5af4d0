#if canImport(Darwin)
import Synchronization

/// The lock of CombineExtras: a non-recursive mutex guarding state that lives in the owning
/// object. Never call out (to a subscriber, a subscription or user code) while holding it.
typealias Lock = Mutex<Void>

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
#else
import CombineCore

/// The lock of CombineExtras: the library's own lock (whose hand-offs ThreadSanitizer sees).
/// Never call out (to a subscriber, a subscription or user code) while holding it.
typealias Lock = CombineCore.Lock
#endif
