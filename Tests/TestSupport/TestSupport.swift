// SPDX-License-Identifier: Apache-2.0
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

    /// Counts this thread in and spins until every thread has arrived, yielding the processor
    /// on each turn (a barrier of more threads than cores would otherwise spin away the time
    /// slices of the threads it waits for).
    public func arriveAndWait() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < count { sched_yield() }
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

/// Runs blocking work — threads joined, semaphores waited on, spins, sleeps — on a thread of
/// ``BlockingExecutor``, off the cooperative pool, and returns its result to the calling task.
///
/// Swift Testing runs every test, synchronous ones too, as a task of the one cooperative pool,
/// which has as many threads as cores. A synchronous test that blocks holds one of them for as
/// long as it runs, and each `async` test's next step waits in the pool's queue behind every
/// test not yet started: on two cores every `async` test of the suite used to finish only at
/// the very end of the run (139 s into a 148 s run), and a loaded machine made that wait longer
/// than any timeout. So a test that blocks for more than a moment is `async` and hands its body
/// here. The body stays part of the test's task (the test's expectations are recorded as
/// usual): only the threads it runs on change.
public func offThePool<Value: Sendable>(
    on executor: BlockingExecutor = .shared, _ body: @Sendable () throws -> Value
) async rethrows -> Value {
    try await withTaskExecutorPreference(executor) {
        try body()
    }
}

/// Runs an exit test — `#expect(processExitsWith:)` and what its result is checked for — off
/// the cooperative pool, at most two at a time.
///
/// Swift Testing waits for an exit test's child process by reading the child's pipes, blocking
/// a thread for each until the child ends: on the pool, two exit tests (and there are dozens)
/// held both of its threads for as long as their children ran. Here those reads block threads
/// of ``BlockingExecutor/childProcesses`` instead, and a test waiting for its turn holds none.
@discardableResult
public func runningExitTest<Value: Sendable>(_ body: () async -> Value) async -> Value {
    await BlockingExecutor.exitTestTurns.enter()
    defer { BlockingExecutor.exitTestTurns.leave() }
    return await withTaskExecutorPreference(BlockingExecutor.childProcesses) { await body() }
}

/// A task executor of a few threads of its own: ``shared`` for the blocking bodies of
/// ``offThePool(_:)``, as many threads as cores (at least two), so the blocking tests overlap as
/// much as they did on the pool, and the jobs of those still waiting for a thread hold none;
/// ``childProcesses`` for the reads of ``runningExitTest(_:)``.
public final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    /// How many threads ``shared`` has: as many as the cores, at least two.
    public static let width = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// The executor of ``offThePool(_:)``.
    public static let shared = BlockingExecutor(threads: width, belowThePool: true)
    /// The executor of ``runningExitTest(_:)``: room for the reads of two exit tests at once
    /// (an exit test reads its child's back channel and each output it observes, three at most),
    /// so that no read waits for a thread while its child waits for the read.
    static let childProcesses = BlockingExecutor(threads: 8, belowThePool: false)
    static let exitTestTurns = AsyncGate(width: 2)

    // `jobs` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    /// An executor of `threads` threads of its own (below the pool's priority when
    /// `belowThePool`), which live as long as the process.
    public init(threads: Int, belowThePool: Bool) {
        for _ in 0..<threads {
            let thread = Thread { [self] in work(belowThePool: belowThePool) }
            // A cooperative pool thread's size, where these bodies used to run.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Whether the calling thread is one of an executor's made `belowThePool`.
    public static var runsHere: Bool { Thread.current.threadDictionary[threadKey] != nil }
    private static let threadKey = "TestSupport.BlockingExecutor"

    private func work(belowThePool: Bool) {
        if belowThePool {
            Thread.current.threadDictionary[Self.threadKey] = true
            // Below the pool's priority (nice 10; a thread started from here inherits it): the
            // stress tests' threads keep both cores busy, and at the same priority they left the
            // pool a fraction of them, so every short test and each step of an `async` one
            // queued behind them. (On Linux a nice value belongs to a thread: `who` 0 is the
            // calling thread.)
            #if os(Linux)
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
        }
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Lets `width` tasks through at a time; the others wait suspended, in arrival order.
final class AsyncGate: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: LockedValue<State>

    init(width: Int) {
        state = LockedValue(State(free: width))
    }

    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the turn to the oldest waiter, or frees it.
    func leave() {
        let next: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// Waits until `condition` holds, looking again after each millisecond, for at most `timeout`;
/// returns whether it held. For results that arrive on another task or thread: the test waits
/// for the event, and the timeout is only reached when the code is wrong. It runs on the
/// caller's actor, so a `@MainActor` test may look at its main-actor state.
///
/// A sleep of a millisecond that takes more than a second is reported on the standard output
/// (the test waited that long for a thread of the pool: some test blocks the pool, which
/// ``offThePool(_:)`` is for).
public func eventually(
    timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        let asleep = ContinuousClock.now
        try? await Task.sleep(for: .milliseconds(1))
        let slept = ContinuousClock.now - asleep
        if slept > .seconds(1) { print("eventually: a 1 ms sleep took \(slept) (the pool was busy)") }
    }
    return true
}

/// Gates an `async` test closure on the test's say-so: `wait(key)` suspends until the test calls
/// `open(key)`, and records that it started, and whether its task was cancelled while waiting
/// (which also ends the wait when `cancellable`).
public final class Gates: Sendable {
    private struct State {
        var opened: Set<Int> = []
        var started: [Int] = []
        var cancelled: Set<Int> = []
        var finished: [Int] = []
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = LockedValue(State())

    public init() {}

    /// The keys whose wait has begun, in order.
    public var started: [Int] { state.current.started }
    /// The keys whose task was cancelled while waiting.
    public var cancelled: Set<Int> { state.current.cancelled }
    /// The keys whose wait has ended, in order.
    public var finished: [Int] { state.current.finished }

    /// Suspends until `open(key)`; with `cancellable`, also until the task is cancelled.
    public func wait(_ key: Int, cancellable: Bool = true) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    state.started.append(key)
                    if state.opened.contains(key) || (cancellable && Task.isCancelled) {
                        continuation.resume()
                    } else {
                        state.waiting[key] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                state.cancelled.insert(key)
                if cancellable { state.waiting.removeValue(forKey: key)?.resume() }
            }
        }
        state.withLock { $0.finished.append(key) }
    }

    /// Lets the wait for `key` end (now, or at once when it begins).
    public func open(_ key: Int) {
        state.withLock { state in
            state.opened.insert(key)
            state.waiting.removeValue(forKey: key)?.resume()
        }
    }
}

/// The failure type of the behaviour tests: hashable and codable, so completions carrying it
/// can be compared and round-tripped.
public struct CoreTestError: Error, Hashable, Codable {
    public let code: Int

    public init(code: Int) {
        self.code = code
    }
}
