import Dispatch
import Foundation
import Synchronization

// Helpers shared by every test target of the package, one name each. Nothing here depends on
// Combine, so the same helpers serve the tests of the core and of CombineExtras (which on
// Apple's platforms are built against the system framework).

/// An object whose lifetime a test watches through a weak reference: captured by a closure,
/// it lives exactly as long as the closure.
public final class LifetimeToken: Sendable {
    public init() {}

    /// Returns `value`; a closure that calls this captures the token.
    public func pass<Value>(_ value: Value) -> Value { value }
}

/// A value guarded by a lock, for state shared with closures that may run on other threads.
/// The lock is a pthread mutex (`NSLock`), which ThreadSanitizer sees.
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// The value now.
    public var current: Value { withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) {
        withLock { $0 = newValue }
    }
}

extension LockedValue where Value: RangeReplaceableCollection {
    /// Appends `element` under the lock.
    public func append(_ element: Value.Element) {
        withLock { $0.append(element) }
    }
}

extension LockedValue where Value == Int {
    /// Adds one under the lock.
    public func increment() {
        withLock { $0 += 1 }
    }
}

/// Holds threads until `count` of them have arrived, then lets them all go at once, so that
/// what they do next really overlaps (blocks handed to a global queue mostly run one after
/// another and hide contention).
public final class StartBarrier: Sendable {
    private let count: Int
    private let arrived = Atomic<Int>(0)

    public init(threads count: Int) {
        self.count = count
    }

    /// Counts this thread in and spins until every thread has arrived.
    public func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < count {}
    }
}

/// Runs `body(index)` for `0..<threads` on as many new threads, released together from one
/// ``StartBarrier``, and returns when all are done.
public func runOverlapping(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = StartBarrier(threads: threads)
    let done = DispatchGroup()
    for index in 0..<threads {
        done.enter()
        Thread {
            barrier.arriveAndWait()
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
}
