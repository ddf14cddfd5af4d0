// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Foundation

#if DEBUG
/// Runs a scenario of a few threads under every interleaving of their steps, up to a bound on
/// preemptions, and checks each run's outcome.
///
/// A step ends at each interleaving point of the code under test (`interleavingPoint()`: every
/// lock operation and every atomic operation of the delivery paths, debug builds only). One
/// explored thread runs at a time; at each point the explorer picks which one goes on. Picking
/// another thread while the one that stopped could go on is a preemption; with at most `bound`
/// of them per run the number of runs stays polynomial in the steps, and most concurrency bugs
/// need only one or two. A thread that must wait (a lock held, no room, the role not yet handed
/// over) tells the explorer what it waits for and is only picked once that holds. So every run
/// is decided by the sequence of picks, and the explorer enumerates the sequences depth first:
/// after each run it changes the last pick that has an alternative left and runs again with the
/// picks before it replayed.
///
/// Each run checks, besides the scenario's own checks: every thread finished (none is left
/// waiting with nobody to wake it), within a bound on steps (no livelock), and the replayed
/// picks met the same choices as before (the scenario is deterministic).
public enum InterleavingExplorer {
    /// One run of a scenario: the threads' bodies, and the checks after they all returned.
    public struct Run {
        public var threads: [() -> Void]
        /// The rules the run broke (empty: none).
        public var check: () -> [String]

        public init(threads: [() -> Void], check: @escaping () -> [String]) {
            self.threads = threads
            self.check = check
        }
    }

    /// What an exploration found.
    public struct Report: CustomStringConvertible, Sendable {
        /// The runs made (interleavings explored), the failing one included.
        public var runs = 0
        /// The most steps one run took.
        public var longestRun = 0
        /// The first failing run's violations, and its schedule (which thread ran each step).
        public var violations: [String] = []
        public var schedule: [Int] = []
        /// Whether every interleaving within the bound was run (not stopped by `maxRuns` or a
        /// failure).
        public var complete = false

        public var description: String {
            if violations.isEmpty {
                return
                    "\(runs) interleavings (\(complete ? "all" : "stopped at the limit"), longest \(longestRun) steps)"
            }
            return "run \(runs) broke: \(violations.joined(separator: "; ")); schedule \(schedule)"
        }
    }

    /// Explores `scenario` (called once per run, on the calling thread, to make a fresh run)
    /// and returns at the first failing run, or when every interleaving with at most
    /// `preemptions` preemptions has run, or after `maxRuns` runs. Explorations run one at a
    /// time in the process (the seam is global); call it from a thread that may block.
    public static func explore(
        preemptions bound: Int = 2, backlog: Int? = nil, budget: Int? = nil, maxRuns: Int = 200_000,
        maxSteps: Int = 5_000, _ scenario: @escaping @Sendable () -> Run
    ) async -> Report {
        // On a thread of its own: a run takes seconds, and the test's thread belongs to the
        // cooperative pool the other tests share.
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: exploreHere(
                        preemptions: bound, backlog: backlog, budget: budget, maxRuns: maxRuns, maxSteps: maxSteps,
                        scenario))
            }.start()
        }
    }

    /// ``explore(preemptions:backlog:budget:maxRuns:maxSteps:_:)`` on the calling thread.
    /// `backlog` and `budget`: the delivery engine's limits on the explored threads
    /// (`SerialDelivery.Limits`; small ones make a few events fill a backlog).
    public static func exploreHere(
        preemptions bound: Int = 2, backlog: Int? = nil, budget: Int? = nil, maxRuns: Int = 200_000,
        maxSteps: Int = 5_000, _ scenario: () -> Run
    ) -> Report {
        explorationGate.lock()
        defer { explorationGate.unlock() }
        let first = scenario()
        let controller = Controller(threads: first.threads.count, backlog: backlog, budget: budget)
        Interleaving.install(controller.hooks)
        defer {
            controller.stop()
            Interleaving.install(nil)
        }
        var report = Report()
        var prefix: [Int] = []
        var previous: [Decision] = []
        var run: Run? = first
        while true {
            let current = run ?? scenario()
            run = nil
            report.runs += 1
            let outcome = controller.run(current.threads, prefix: prefix, previous: previous, maxSteps: maxSteps)
            report.longestRun = max(report.longestRun, outcome.decisions.count)
            var violations = outcome.violations
            if violations.isEmpty { violations = current.check() }
            if !violations.isEmpty {
                report.violations = violations
                report.schedule = outcome.decisions.map(\.chosen)
                return report
            }
            guard let next = nextPrefix(outcome.decisions, bound: bound) else {
                report.complete = true
                return report
            }
            if report.runs >= maxRuns { return report }
            prefix = next
            previous = outcome.decisions
        }
    }

    /// One pick: the threads that could go on, the one picked, the one that had just stopped
    /// at a point (still able to go on: picking another is a preemption), and the preemptions
    /// before it.
    struct Decision {
        var runnable: [Int]
        var chosen: Int
        var stopped: Int?
        var preemptionsBefore: Int

        /// The order in which the picks are tried: first the one that keeps the thread that
        /// stopped running, then the others by index.
        var order: [Int] {
            guard let stopped, runnable.contains(stopped) else { return runnable }
            return [stopped] + runnable.filter { $0 != stopped }
        }

        func preempts(_ choice: Int) -> Bool {
            guard let stopped, runnable.contains(stopped) else { return false }
            return choice != stopped
        }
    }

    /// The picks of the next run: the last decision with an untried pick within the bound
    /// changed to it, the picks before it kept.
    static func nextPrefix(_ decisions: [Decision], bound: Int) -> [Int]? {
        for depth in decisions.indices.reversed() {
            let decision = decisions[depth]
            let order = decision.order
            guard let position = order.firstIndex(of: decision.chosen) else { continue }
            for alternative in order[(position + 1)...]
            where decision.preemptionsBefore + (decision.preempts(alternative) ? 1 : 0) <= bound {
                return decisions[..<depth].map(\.chosen) + [alternative]
            }
        }
        return nil
    }

    /// Explorations share the one global seam.
    private static let explorationGate = NSLock()

    /// The explored threads and the hand-over between them: exactly one of them, or the
    /// controller, runs at any time, and it passes the turn on by opening the next one's gate.
    /// The state below is touched only by whoever has the turn; a gate's lock orders it.
    final class Controller: @unchecked Sendable {
        enum Status {
            /// Waiting for the next run (or its body not yet begun).
            case idle
            /// At the start of its body or at a point: can go on.
            case stopped
            /// Can go on once the condition holds.
            case blocked(() -> Bool)
            case running
            case finished
        }

        /// Where one participant waits for its turn.
        final class Gate: @unchecked Sendable {
            let condition = NSCondition()
            var open = false

            func pass() {
                condition.lock()
                open = true
                condition.signal()
                condition.unlock()
            }

            func wait() {
                condition.lock()
                while !open { condition.wait() }
                open = false
                condition.unlock()
            }

            /// ``wait()`` for at most `seconds`; `false` when the turn did not come.
            func wait(seconds: Double) -> Bool {
                let deadline = Date(timeIntervalSinceNow: seconds)
                condition.lock()
                defer { condition.unlock() }
                while !open {
                    if !condition.wait(until: deadline) && !open { return false }
                }
                open = false
                return true
            }
        }

        let count: Int
        let gates: [Gate]
        let controllerGate = Gate()
        var status: [Status]
        var bodies: [(() -> Void)?]
        var stopping = false
        var steps = 0
        private(set) var hooks: InterleavingHooks!

        init(threads count: Int, backlog: Int?, budget: Int?) {
            self.count = count
            gates = (0..<count).map { _ in Gate() }
            status = Array(repeating: .idle, count: count)
            bodies = Array(repeating: nil, count: count)
            let identities = LockedValue([UInt](repeating: 0, count: count))
            for thread in 0..<count {
                let started = DispatchSemaphore(value: 0)
                // The thread keeps the controller: one left waiting by a failed run keeps it for good.
                let worker = Thread {
                    identities.withLock { $0[thread] = currentThreadID() }
                    started.signal()
                    self.work(thread)
                }
                worker.stackSize = 1 << 22
                worker.start()
                started.wait()
            }
            let ids = identities.current
            let index = { (id: UInt) -> Int in ids.firstIndex(of: id)! }
            hooks = InterleavingHooks(
                threads: ids, backlog: backlog, budget: budget,
                point: { [unowned self] in self.stop(index(currentThreadID()), as: .stopped) },
                block: { [unowned self] ready in
                    withoutActuallyEscaping(ready) { ready in
                        self.stop(index(currentThreadID()), as: .blocked(ready))
                    }
                })
        }

        /// A worker thread: for each run, runs its body once picked, then hands the turn back.
        private func work(_ thread: Int) {
            while true {
                gates[thread].wait()
                if stopping { return }
                status[thread] = .running
                var body = bodies[thread]
                bodies[thread] = nil
                body.unsafelyUnwrapped()
                // What the body held is let go here, while this thread has the turn: a `deinit`
                // may pass points too (let go after the turn was handed back, it would run
                // beside the next thread picked).
                body = nil
                status[thread] = .finished
                controllerGate.pass()
            }
        }

        /// On an explored thread: hands the turn back to the controller and waits to be picked.
        func stop(_ thread: Int, as state: Status) {
            steps += 1
            status[thread] = state
            controllerGate.pass()
            gates[thread].wait()
            status[thread] = .running
        }

        struct Outcome {
            var decisions: [Decision] = []
            var violations: [String] = []
        }

        /// One run: picks from `prefix` first, then keeps the running thread running as long
        /// as it can (else the first that can).
        func run(_ bodies: [() -> Void], prefix: [Int], previous: [Decision], maxSteps: Int) -> Outcome {
            precondition(bodies.count == count, "InterleavingExplorer: a scenario's runs must have the same threads")
            var outcome = Outcome()
            self.bodies = bodies
            steps = 0
            for thread in 0..<count { status[thread] = .stopped }
            var stopped: Int? = nil
            var preemptions = 0
            while true {
                var runnable: [Int] = []
                var unfinished: [Int] = []
                for thread in 0..<count {
                    switch status[thread] {
                    case .stopped: runnable.append(thread)
                    case .blocked(let ready): if ready() { runnable.append(thread) }
                    case .finished: continue
                    case .idle, .running: break
                    }
                    unfinished.append(thread)
                }
                if unfinished.isEmpty {
                    for thread in 0..<count { status[thread] = .idle }
                    return outcome
                }
                if runnable.isEmpty {
                    // Left as they are: nothing can wake them.
                    outcome.violations.append("threads \(unfinished) wait and nobody can wake them")
                    return outcome
                }
                if outcome.decisions.count >= maxSteps {
                    outcome.violations.append("no end after \(maxSteps) steps (threads \(unfinished) still going)")
                    return outcome
                }
                let depth = outcome.decisions.count
                var decision = Decision(
                    runnable: runnable, chosen: -1, stopped: stopped, preemptionsBefore: preemptions)
                if depth < prefix.count {
                    if depth < previous.count, previous[depth].runnable != runnable {
                        outcome.violations.append(
                            "the replayed run differs at step \(depth): \(runnable) could go on, before \(previous[depth].runnable)"
                        )
                        return outcome
                    }
                    decision.chosen = prefix[depth]
                } else {
                    decision.chosen = decision.order[0]
                }
                if decision.preempts(decision.chosen) { preemptions += 1 }
                outcome.decisions.append(decision)
                gates[decision.chosen].pass()
                guard controllerGate.wait(seconds: 120) else {
                    outcome.violations.append(
                        "thread \(decision.chosen) did not come back to a point within 120 s (it waits on something the explorer does not see)"
                    )
                    return outcome
                }
                // A thread that stopped at a point can go on; one that blocked or finished cannot
                // be preempted.
                if case .stopped = status[decision.chosen] { stopped = decision.chosen } else { stopped = nil }
            }
        }

        /// Ends the worker threads that wait for the next run (not those a failed run left
        /// waiting in the middle of their bodies).
        func stop() {
            stopping = true
            for thread in 0..<count {
                switch status[thread] {
                case .idle, .finished: gates[thread].pass()
                case .stopped, .blocked, .running: continue
                }
            }
        }
    }
}
#endif

/// The subscriber side of an explored scenario or a stress test: records each call, with an interleaving point inside it
/// (so another thread may run while it is under way) and counts overlapping calls. Only one
/// explored thread runs at a time, so plain properties are enough.
public final class RecordedCalls: @unchecked Sendable {
    /// The thread calling now, and how deep (a call from inside a call on the same thread is
    /// nested, not overlapping).
    public var caller: UInt = 0
    public var depth = 0
    public var overlaps = 0
    public var delivered: [Int] = []
    /// Every call and mark in order: a value as its number, others as ``mark(_:)`` wrote them.
    public var log: [String] = []
    /// Run inside the call of the value, after it is recorded.
    public var during: (Int) -> Void = { _ in }

    public init() {}

    public func call(_ value: Int) {
        let me = currentThreadID()
        if depth > 0 && caller != me { overlaps += 1 }
        let outer = (caller, depth)
        (caller, depth) = (me, depth + 1)
        delivered.append(value)
        log.append(String(value))
        interleavingPoint()
        during(value)
        (caller, depth) = outer
    }

    /// Records a call that is not a value (`completion`), checked for overlap like one.
    public func call(mark: String) {
        let me = currentThreadID()
        if depth > 0 && caller != me { overlaps += 1 }
        log.append(mark)
    }

    /// Records something that happened outside the calls (`cancel returned`), for the order.
    public func mark(_ text: String) {
        log.append(text)
    }

    /// Where `mark` is in ``log``.
    public func position(of mark: String) -> Int? { log.firstIndex(of: mark) }

    /// The rules every delivery keeps: no two calls at once, each value at most once, each
    /// sender's values in its order (`senders`: what each thread sent, in order).
    public func violations(senders: [[Int]]) -> [String] {
        var found: [String] = []
        if overlaps > 0 { found.append("\(overlaps) calls overlapped another") }
        if Set(delivered).count != delivered.count { found.append("a value was delivered twice: \(delivered)") }
        for sent in senders {
            let own = delivered.filter(sent.contains)
            let order = sent.filter(own.contains)
            if own != order { found.append("a sender's order changed: \(own), sent \(sent)") }
        }
        return found
    }
}
