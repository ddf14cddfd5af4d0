// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// A scheduler whose clock moves only when a test moves it.
///
/// Time-based code — `debounce`, `throttle`, `delay`, `timeout`, timers — becomes
/// deterministic and instant to test: nothing runs until the test calls ``advance(by:)``,
/// ``advance(to:)`` or ``run()``, and then every action due by the new time runs, in order of
/// due time, actions due at the same instant in the order they were scheduled.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let subject = PassthroughSubject<String, Never>()
/// var output: [String] = []
/// let cancellable = subject
///     .debounce(for: .milliseconds(300), scheduler: scheduler)
///     .sink { output.append($0) }
/// subject.send("S"); subject.send("Sw")
/// scheduler.advance(by: .milliseconds(299))   // output == []
/// scheduler.advance(by: .milliseconds(1))     // output == ["Sw"]
/// ```
///
/// The scheduler is generic over any scheduler's time type and options, so code written
/// against `DispatchQueue`, `RunLoop` or `OperationQueue` (or a generic `Scheduler`) is tested
/// by handing it `DispatchQueue.test`, `RunLoop.test` or `OperationQueue.test`; options are
/// accepted and ignored. Actions may be scheduled from any thread; they run on the thread that
/// advances the clock, never while the scheduler's lock is held, so an action may schedule
/// more actions (they run in the same advance if they fall due within it).
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private struct Item {
        let id: Int
        let sequence: Int
        let due: SchedulerTimeType
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
    }

    private let lock = Lock()
    private var clock: SchedulerTimeType
    private var items: [Item] = []
    private var nextSequence = 0
    private var nextID = 0

    /// Creates a test scheduler whose clock starts at `now`.
    public init(now: SchedulerTimeType) {
        clock = now
    }

    /// The scheduler's virtual time.
    public var now: SchedulerTimeType { lock.withLock { clock } }

    /// Zero: a test scheduler runs every action exactly at its due time.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many actions wait to run (repeating actions count once).
    public var pendingActionCount: Int { lock.withLock { items.count } }

    // MARK: Scheduling

    /// Schedules the action to run at the current virtual time, the next time the clock is
    /// advanced (even by zero).
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        lock.withLock { _ = enqueueLocked(due: clock, interval: nil, action: action) }
    }

    /// Schedules the action to run when the clock reaches `date` (at once, on the next
    /// advance, if `date` is already past).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { _ = enqueueLocked(due: date, interval: nil, action: action) }
    }

    /// Schedules the action to run when the clock reaches `date`, then every `interval`, until
    /// the returned cancellable is cancelled or released.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let id = lock.withLock { enqueueLocked(due: date, interval: interval, action: action) }
        return AnyCancellable { [weak self] in self?.cancelAction(id) }
    }

    /// Schedules a one-shot action and returns its id, for ``cancelAction(_:)``: how
    /// ``TestSchedulerClock`` wakes a sleeper, and unschedules the wake-up when the sleep is
    /// cancelled.
    func scheduleAction(after date: SchedulerTimeType, _ action: @escaping () -> Void) -> Int {
        lock.withLock { enqueueLocked(due: date, interval: nil, action: action) }
    }

    /// Removes an action scheduled with ``scheduleAction(after:_:)`` if it has not run.
    func cancelAction(_ id: Int) {
        // The action is released after the lock: what it holds may schedule again.
        let removed: Item? = lock.withLock { items.firstIndex { $0.id == id }.map { items.remove(at: $0) } }
        withExtendedLifetime(removed) {}
    }

    @discardableResult
    private func enqueueLocked(
        due: SchedulerTimeType, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void, id: Int? = nil
    ) -> Int {
        let id =
            id
            ?? {
                defer { nextID += 1 }
                return nextID
            }()
        items.append(Item(id: id, sequence: nextSequence, due: due, interval: interval, action: action))
        nextSequence += 1
        return id
    }

    // MARK: Moving the clock

    /// Moves the clock forward by `stride`, running every action that falls due on the way,
    /// each with the clock set to its due time. `advance()` runs what is due now.
    ///
    /// A negative stride is a misuse of virtual time and traps.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        precondition(
            stride >= .zero, "TestScheduler.advance(by:) needs a non-negative stride: virtual time only moves forward")
        advance(to: now.advanced(by: stride))
    }

    /// Moves the clock forward to `instant`, running every action that falls due on the way,
    /// each with the clock set to its due time. The clock never moves backwards: an instant in
    /// the past runs what is due now.
    public func advance(to instant: SchedulerTimeType) {
        while let item = takeNext(dueBy: instant) {
            item.action()
        }
        lock.withLock { if clock < instant { clock = instant } }
    }

    /// Runs actions in due order until none is left, moving the clock to each one's due time.
    ///
    /// A repeating action that is never cancelled would keep this running forever: after a
    /// million actions it traps with a message saying so; advance by a fixed stride instead.
    public func run() {
        var ran = 0
        while let item = takeNext(dueBy: nil) {
            ran += 1
            precondition(
                ran <= 1_000_000,
                "TestScheduler.run(): a million actions ran and more are due; a repeating action that is never cancelled keeps run() from ending — use advance(by:)"
            )
            item.action()
        }
    }

    /// Removes and returns the earliest action due by `limit` (any, if `nil`), setting the clock
    /// to its due time and re-queueing it if it repeats.
    private func takeNext(dueBy limit: SchedulerTimeType?) -> Item? {
        lock.withLock {
            var best: Int?
            for index in items.indices {
                let candidate = items[index]
                if let limit, candidate.due > limit { continue }
                if let current = best {
                    let chosen = items[current]
                    if (candidate.due, candidate.sequence) < (chosen.due, chosen.sequence) { best = index }
                } else {
                    best = index
                }
            }
            guard let best else { return nil }
            let item = items.remove(at: best)
            if clock < item.due { clock = item.due }
            if let interval = item.interval {
                enqueueLocked(
                    due: item.due.advanced(by: interval), interval: interval, action: item.action, id: item.id)
            }
            return item
        }
    }
}

/// A test scheduler standing in for a scheduler of type `S`, with `S`'s time type and options.
///
/// ```swift
/// let scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test
/// ```
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>

/// An instant in virtual time, counted in nanoseconds from zero: the time type of a
/// ``TestScheduler`` that stands in for no particular real scheduler.
///
/// ```swift
/// let scheduler = TestScheduler<VirtualTime, Never>(now: .zero)
/// scheduler.advance(by: .seconds(1))   // scheduler.now == VirtualTime(nanoseconds: 1_000_000_000)
/// ```
public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// A span of virtual time, in nanoseconds; integer and floating-point literals are seconds.
    public struct Stride: Comparable, SignedNumeric, Hashable, Sendable, ExpressibleByFloatLiteral,
        SchedulerTimeIntervalConvertible, CustomStringConvertible
    {
        /// The span, in nanoseconds.
        public var nanoseconds: Int

        /// Creates a span of `nanoseconds`.
        public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

        /// A span of `value` seconds.
        public init(integerLiteral value: Int) { nanoseconds = value * 1_000_000_000 }

        /// A span of `value` seconds.
        public init(floatLiteral value: Double) { nanoseconds = Int((value * 1e9).rounded()) }

        /// A span of `source` seconds, if it fits.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = Int(exactly: source) else { return nil }
            let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
            guard !overflow else { return nil }
            nanoseconds = product
        }

        /// The absolute value of the span.
        public var magnitude: Stride { Stride(nanoseconds: abs(nanoseconds)) }

        /// The span in seconds, e.g. `1.5s`.
        public var description: String { "\(Double(nanoseconds) / 1e9)s" }

        /// Returns whether `lhs` is the shorter span.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
        /// Returns the sum of two spans.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
        }
        /// Returns the difference of two spans.
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
        }
        /// Scales a span by another span's value in seconds, as literals read: `.seconds(2) * 3`.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: lhs.nanoseconds * rhs.nanoseconds / 1_000_000_000)
        }
        /// Adds `rhs` to `lhs`.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts `rhs` from `lhs`.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Scales `lhs` by `rhs`, as `*` does.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// A span of `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(nanoseconds: s * 1_000_000_000) }
        /// A span of `s` seconds, rounded to the nearest nanosecond.
        public static func seconds(_ s: Double) -> Stride { Stride(nanoseconds: Int((s * 1e9).rounded())) }
        /// A span of `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(nanoseconds: ms * 1_000_000) }
        /// A span of `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(nanoseconds: us * 1_000) }
        /// A span of `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
    }

    /// Nanoseconds since virtual time zero.
    public var nanoseconds: Int

    /// The instant `nanoseconds` after virtual time zero.
    public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

    /// Virtual time zero.
    public static let zero = VirtualTime(nanoseconds: 0)

    /// The instant in seconds since virtual time zero, e.g. `1.5s`.
    public var description: String { "\(Double(nanoseconds) / 1e9)s" }

    /// The span from this instant to `other` (negative when `other` is earlier).
    public func distance(to other: VirtualTime) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
    /// The instant `n` after this one.
    public func advanced(by n: Stride) -> VirtualTime { VirtualTime(nanoseconds: nanoseconds + n.nanoseconds) }
}

extension TestScheduler where SchedulerTimeType == VirtualTime {
    /// A test scheduler in ``VirtualTime``, starting at zero.
    public convenience init() { self.init(now: .zero) }
}
