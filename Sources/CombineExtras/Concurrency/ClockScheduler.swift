import Combine
import CombineSynchronization

extension Clock where Duration == Swift.Duration {
    /// A Combine scheduler that waits on this clock: time operators driven by it run when this
    /// clock reaches their due time.
    ///
    /// ```swift
    /// let cancellable = query
    ///     .debounce(for: .milliseconds(300), scheduler: ContinuousClock().scheduler)
    ///     .sink { search($0) }
    /// ```
    ///
    /// See ``ClockScheduler`` for the order in which actions run.
    ///
    /// - Returns: A ``ClockScheduler`` on this clock.
    public var scheduler: ClockScheduler<Self> {
        ClockScheduler(clock: self)
    }
}

/// A Combine `Scheduler` driven by a Swift `Clock` — `ContinuousClock`, `SuspendingClock`, or a
/// clock a test controls — so that the time operators (`debounce`, `throttle`, `delay`,
/// `timeout`, `collect(.byTime)`, `receive(on:)`) and `async` code can share one clock.
///
/// ```swift
/// let scheduler = ContinuousClock().scheduler
/// let cancellable = Just("saved")
///     .delay(for: .seconds(1), scheduler: scheduler)
///     .sink { print($0) }
/// // Prints "saved" a second later, on the scheduler's task
/// ```
///
/// - Actions run one at a time, on one task the scheduler keeps while it has actions to run,
///   in order of due time, and in the order they were scheduled when due at the same time
///   (so `receive(on:)` keeps the order of values, as on a serial `DispatchQueue`).
/// - The task waits with the clock's `sleep(until:tolerance:)`: a clock a test advances runs
///   the actions when the test moves it past their due time.
/// - A repeating action (`schedule(after:interval:tolerance:options:_:)`) runs until its
///   cancellable is cancelled; each run is due one interval after the previous due time.
/// - Copies of a scheduler share its actions and its task.
public struct ClockScheduler<C: Clock>: Scheduler, Sendable where C.Duration == Swift.Duration {
    /// A point in time of the clock.
    public struct SchedulerTimeType: Strideable, Hashable, Sendable {
        /// The clock's instant.
        public let instant: C.Instant

        /// Creates a scheduler time from a clock instant.
        ///
        /// - Parameter instant: The clock's instant.
        public init(_ instant: C.Instant) {
            self.instant = instant
        }

        /// The distance from this time to another.
        ///
        /// - Parameter other: The later (or earlier) time.
        /// - Returns: The stride between the two.
        public func distance(to other: SchedulerTimeType) -> Stride {
            Stride(instant.duration(to: other.instant))
        }

        /// The time a stride away from this one.
        ///
        /// - Parameter stride: How far to move.
        /// - Returns: The moved time.
        public func advanced(by stride: Stride) -> SchedulerTimeType {
            SchedulerTimeType(instant.advanced(by: stride.duration))
        }

        /// A distance between two scheduler times: a `Duration`.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable, Sendable,
            ExpressibleByFloatLiteral
        {
            /// The duration.
            public var duration: Swift.Duration

            /// Creates a stride of a duration.
            ///
            /// - Parameter duration: The duration.
            public init(_ duration: Swift.Duration) {
                self.duration = duration
            }

            /// A stride of so many seconds.
            ///
            /// - Parameter value: The number of seconds.
            public init(floatLiteral value: Double) {
                self.init(.seconds(value))
            }

            /// A stride of so many seconds.
            ///
            /// - Parameter value: The number of seconds.
            public init(integerLiteral value: Int) {
                self.init(.seconds(value))
            }

            /// Creates a stride from a whole number of seconds, if it fits.
            ///
            /// - Parameter source: The number of seconds.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int64(exactly: source) else { return nil }
                self.init(.seconds(seconds))
            }

            /// The stride's size: its absolute duration.
            public var magnitude: Stride { Stride(duration < .zero ? .zero - duration : duration) }

            /// A stride of so many seconds.
            ///
            /// - Parameter s: The number of seconds.
            /// - Returns: The stride.
            public static func seconds(_ s: Int) -> Stride { Stride(.seconds(s)) }

            /// A stride of so many seconds.
            ///
            /// - Parameter s: The number of seconds.
            /// - Returns: The stride.
            public static func seconds(_ s: Double) -> Stride { Stride(.seconds(s)) }

            /// A stride of so many milliseconds.
            ///
            /// - Parameter ms: The number of milliseconds.
            /// - Returns: The stride.
            public static func milliseconds(_ ms: Int) -> Stride { Stride(.milliseconds(ms)) }

            /// A stride of so many microseconds.
            ///
            /// - Parameter us: The number of microseconds.
            /// - Returns: The stride.
            public static func microseconds(_ us: Int) -> Stride { Stride(.microseconds(us)) }

            /// A stride of so many nanoseconds.
            ///
            /// - Parameter ns: The number of nanoseconds.
            /// - Returns: The stride.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(.nanoseconds(ns)) }

            /// Whether one stride is shorter than another.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.duration < rhs.duration }

            /// The sum of two strides.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.duration + rhs.duration) }

            /// The difference of two strides.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.duration - rhs.duration) }

            /// The product of two strides, as the product of their lengths in seconds.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                Stride(
                    lhs.duration
                        * (Double(rhs.duration.components.seconds)
                            + Double(rhs.duration.components.attoseconds) / 1e18))
            }

            /// Adds a stride to this one.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }

            /// Subtracts a stride from this one.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// Multiplies this stride by another.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        }
    }

    /// The scheduler takes no options.
    public typealias SchedulerOptions = Never

    /// The clock the scheduler waits on.
    public let clock: C
    private let runner: ClockRunner<C>

    /// Creates a scheduler that waits on `clock`.
    ///
    /// - Parameter clock: The clock whose time the scheduler follows.
    public init(clock: C) {
        self.clock = clock
        self.runner = ClockRunner(clock: clock)
    }

    /// The clock's time now.
    public var now: SchedulerTimeType { SchedulerTimeType(clock.now) }

    /// The clock's resolution.
    public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(clock.minimumResolution) }

    /// Runs `action` as soon as possible, after the actions already due.
    ///
    /// - Parameters:
    ///   - options: None.
    ///   - action: The action to run.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        runner.add(due: clock.now, interval: nil, action: action)
    }

    /// Runs `action` once the clock reaches `date`.
    ///
    /// - Parameters:
    ///   - date: When to run it.
    ///   - tolerance: How late it may run (passed to the clock's `sleep`).
    ///   - options: None.
    ///   - action: The action to run.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        runner.add(due: date.instant, interval: nil, action: action)
    }

    /// Runs `action` once the clock reaches `date`, then every `interval`, until the returned
    /// cancellable is cancelled.
    ///
    /// - Parameters:
    ///   - date: When to run it first.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: None.
    ///   - action: The action to run.
    /// - Returns: A cancellable that stops the repetition.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = runner.add(due: date.instant, interval: interval.duration, action: action)
        return AnyCancellable { [runner] in runner.cancel(id) }
    }
}

/// The actions of a ``ClockScheduler`` and the task that runs them.
private final class ClockRunner<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    private struct Item {
        let id: Int
        var due: C.Instant
        let interval: Duration?
        let action: () -> Void
    }

    private let clock: C
    private let lock = Lock()
    /// Sorted by due time, then by id (the order of scheduling).
    private var items: [Item] = []
    private var nextID = 0
    private var cancelled: Set<Int> = []
    private var running = false
    /// The driver's wait for the earliest item, cancelled when an earlier one arrives.
    private var sleeper: Task<Void, any Error>?
    private var sleepingUntil: C.Instant?

    init(clock: C) {
        self.clock = clock
    }

    /// Adds an action; returns its id, for `cancel(_:)`.
    @discardableResult
    func add(due: C.Instant, interval: Duration?, action: @escaping () -> Void) -> Int {
        lock.acquire()
        let id = nextID
        nextID += 1
        insertLocked(Item(id: id, due: due, interval: interval, action: action))
        var interrupted: Task<Void, any Error>?
        if let until = sleepingUntil, due < until {
            interrupted = sleeper
            sleepingUntil = nil
        }
        let start = !running
        running = true
        lock.release()
        interrupted?.cancel()
        if start { Task { [self] in await drive() } }
        return id
    }

    private func insertLocked(_ item: Item) {
        let index = items.firstIndex { ($0.due, $0.id) > (item.due, item.id) } ?? items.endIndex
        items.insert(item, at: index)
    }

    func cancel(_ id: Int) {
        lock.acquire()
        cancelled.insert(id)
        items.removeAll { $0.id == id }
        lock.release()
    }

    /// Runs the items in order, waiting on the clock for each, until none is left.
    private func drive() async {
        while true {
            lock.acquire()
            guard let first = items.first else {
                running = false
                lock.release()
                return
            }
            if first.due > clock.now {
                let until = first.due
                let clock = self.clock
                let wait = Task { try await clock.sleep(until: until, tolerance: nil) }
                sleeper = wait
                sleepingUntil = until
                lock.release()
                _ = await wait.result
                lock.acquire()
                sleeper = nil
                sleepingUntil = nil
                lock.release()
                continue
            }
            items.removeFirst()
            if let interval = first.interval, !cancelled.contains(first.id) {
                var next = first
                next.due = first.due.advanced(by: interval)
                insertLocked(next)
            }
            lock.release()
            first.action()
        }
    }
}
