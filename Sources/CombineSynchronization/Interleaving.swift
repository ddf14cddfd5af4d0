// SPDX-License-Identifier: Apache-2.0
import Synchronization

// The seam of the interleaving explorer (Tests/TestSupport/InterleavingExplorer.swift), in debug
// builds only: every lock operation and every atomic operation of the delivery paths passes a
// point (`interleavingPoint()`) where a test can stop the thread and run another one instead, and
// every wait (for a lock, for room, for the role) tells the test what it waits for
// (`Interleaving.block(until:)`) instead of spinning or sleeping. A release build compiles
// `interleavingPoint()` to nothing and has none of the rest.

/// A point where an explored thread may be stopped and another one run (debug builds; nothing
/// in release builds). Call it before an operation another thread can observe: a lock's
/// acquire or release, an atomic load, store or read-modify-write of delivery state.
@inlinable
@inline(__always)
package func interleavingPoint() {
    #if DEBUG
    if _slowPath(Interleaving.isInstalled) { Interleaving.point() }
    #endif
}

#if DEBUG
/// What a test installs to run threads one step at a time: the threads it explores, and what
/// such a thread does at a point and when it must wait.
@usableFromInline
package final class InterleavingHooks: @unchecked Sendable {
    /// The explored threads (``currentThreadID()``; a few, looked through one by one); any other
    /// thread passes every point.
    let threads: [UInt]
    let point: () -> Void
    let block: (() -> Bool) -> Void
    /// Smaller limits of the delivery engine on explored threads (`SerialDelivery.Limits`), so
    /// that a few events fill a backlog and use up a budget.
    @usableFromInline let backlog: Int?
    @usableFromInline let budget: Int?

    /// `point`: called on an explored thread at each point; returns when that thread may go
    /// on. `block`: called on an explored thread that cannot go on until the condition holds
    /// (the condition is evaluated while every explored thread is stopped); returns when it
    /// holds and the thread may go on.
    package init(
        threads: [UInt], backlog: Int? = nil, budget: Int? = nil, point: @escaping () -> Void,
        block: @escaping (() -> Bool) -> Void
    ) {
        self.threads = threads
        self.backlog = backlog
        self.budget = budget
        self.point = point
        self.block = block
    }
}

/// The installed hooks (unmanaged, as a bit pattern), or 0.
@usableFromInline
package let installedInterleavingHooks = Atomic<UInt>(0)

@usableFromInline
package enum Interleaving {
    /// Whether a test explores interleavings now (any thread may ask: one load).
    @inlinable
    package static var isInstalled: Bool { installedInterleavingHooks.load(ordering: .relaxed) != 0 }

    /// Installs `hooks`, or removes them with `nil`. Hooks once installed are never freed: a
    /// thread of another test may still be reading them.
    package static func install(_ hooks: InterleavingHooks?) {
        let bits = hooks.map { UInt(bitPattern: Unmanaged.passRetained($0).toOpaque()) } ?? 0
        installedInterleavingHooks.store(bits, ordering: .sequentiallyConsistent)
    }

    /// The hooks, when the calling thread is an explored one.
    @usableFromInline
    static var hooksOfThisThread: InterleavingHooks? {
        let bits = installedInterleavingHooks.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        let hooks = Unmanaged<InterleavingHooks>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
            .takeUnretainedValue()
        return hooks.threads.contains(currentThreadID()) ? hooks : nil
    }

    @usableFromInline
    @inline(never)
    static func point() {
        hooksOfThisThread?.point()
    }

    /// On an explored thread: returns once `ready` holds, having let the other threads run
    /// meanwhile (`true`). Any other thread: `false` at once (it waits as it always does).
    @usableFromInline
    @inline(never)
    static func block(until ready: () -> Bool) -> Bool {
        guard let hooks = hooksOfThisThread else { return false }
        hooks.block(ready)
        return true
    }
}
#endif
