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
///
/// Under ThreadSanitizer the lock can report itself to the sanitizer: `Mutex` hands over
/// through a futex that the sanitizer does not see, so without the annotations every critical
/// section would be reported as a race. The annotations are compiled in only with
/// `-Xswiftc -DCOMBINE_TSAN` (`swift test --sanitize=thread -Xswiftc -DCOMBINE_TSAN`, as
/// `.ci/run` does): even a never-taken check in every lock operation made the optimiser stop
/// inlining the subject's delivery (measured: 390 → 448 instructions per send).
@usableFromInline
package typealias Lock = Mutex<Void>

/// ThreadSanitizer's `__tsan_acquire` and `__tsan_release`: they tell the sanitizer that the
/// thread has taken or is giving up the synchronisation object at the given address.
@usableFromInline
package struct ThreadSanitizerHooks {
    @usableFromInline
    package typealias Annotation = @convention(c) (UnsafeRawPointer) -> Void

    @usableFromInline
    package let acquire: Annotation

    @usableFromInline
    package let release: Annotation

    /// The sanitizer runtime's entry points, or `nil` when the process was built without it.
    fileprivate static func lookUp() -> ThreadSanitizerHooks? {
        let everyLoadedObject = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let acquire = dlsym(everyLoadedObject, "__tsan_acquire"),
            let release = dlsym(everyLoadedObject, "__tsan_release")
        else { return nil }
        return ThreadSanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Annotation.self),
            release: unsafeBitCast(release, to: Annotation.self)
        )
    }
}

/// The sanitizer's entry points when it is loaded, `nil` otherwise. Set once, by the first
/// ``Mutex/init()`` (through ``threadSanitizerLookUp``) before that lock exists; a lock reaches
/// another thread only after its creator has passed that one-time initialisation, so every
/// thread that uses a lock sees the value set.
@usableFromInline
@exclusivity(unchecked)
nonisolated(unsafe) package var threadSanitizerHooks: ThreadSanitizerHooks? = nil

/// Runs the look-up once, on the first lock created.
@usableFromInline
package let threadSanitizerLookUp: Void = {
    threadSanitizerHooks = ThreadSanitizerHooks.lookUp()
    threadSanitizerIsLoaded = threadSanitizerHooks != nil
}()

/// Whether ``threadSanitizerHooks`` is set: the one thing the inlined lock operations test.
/// Statically initialised (no lazy-initialisation check), so the test is a plain load.
@exclusivity(unchecked)
@usableFromInline
nonisolated(unsafe) package var threadSanitizerIsLoaded = false

extension Mutex where Value == Void {
    /// Creates an unlocked lock.
    @inlinable
    package init() {
        #if COMBINE_TSAN
        _ = threadSanitizerLookUp
        #endif
        self.init(())
    }

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
        _unsafeLock()
        #if COMBINE_TSAN
        if _slowPath(threadSanitizerIsLoaded) { reportAcquired() }
        #endif
    }

    /// Releases the lock taken by ``acquire()``.
    @inlinable
    @inline(__always)
    package borrowing func release() {
        #if COMBINE_TSAN
        if _slowPath(threadSanitizerIsLoaded) { reportReleasing() }
        #endif
        _unsafeUnlock()
    }

    /// Tells ThreadSanitizer that this thread now holds the lock. Out of line, so the check
    /// is all that the inlined ``acquire()`` adds to its caller.
    @usableFromInline
    @inline(never)
    package borrowing func reportAcquired() {
        withUnsafePointer(to: self) { threadSanitizerHooks?.acquire(UnsafeRawPointer($0)) }
    }

    /// Tells ThreadSanitizer that this thread is about to give up the lock.
    @usableFromInline
    @inline(never)
    package borrowing func reportReleasing() {
        withUnsafePointer(to: self) { threadSanitizerHooks?.release(UnsafeRawPointer($0)) }
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

/// Where a subscriber stands with its subscription. Not nested in a generic subscriber, so
/// code that runs unspecialised (a `cancel()` reached through `any Cancellable`) can store and
/// read it without looking up metadata.
@usableFromInline
enum SubscriberStatus {
    case awaitingSubscription
    case subscribed(Subscription)
    case terminal
}
