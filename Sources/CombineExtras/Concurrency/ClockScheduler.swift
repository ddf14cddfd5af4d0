// SPDX-License-Identifier: Apache-2.0
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
/// - Scheduling an action costs O(log n) in the actions pending, and so does running the next
///   one; cancelling a repeating action costs O(1), and what it held is let go soon after.
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

    /// The actions the scheduler holds now, cancelled repeating ones not yet dropped included
    /// (for the tests: it stays proportional to the live actions).
    var heldActionCount: Int { runner.heldCount }

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
        let mark = runner.add(due: date.instant, interval: interval.duration, action: action)
        return AnyCancellable { [runner] in if let mark { runner.cancel(mark) } }
    }
}

/// The actions of a ``ClockScheduler`` and the task that runs them.
///
/// The pending actions are a binary min-heap ordered by due time, then by the order of
/// scheduling, so scheduling an action and taking the next due one cost O(log n) in the number
/// pending. Only a repeating action can be cancelled; its cancel marks it (O(1)) and the
/// driver drops it when it reaches the top. Marked actions are counted, and once they are more
/// than half of the heap it is rebuilt without them, so a flood of schedule-and-cancel keeps
/// memory proportional to the live actions.
private final class ClockRunner<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    /// The cancellation mark of a repeating action, shared by its heap entry and its cancellable
    /// (read and written under the runner's lock).
    final class Mark: @unchecked Sendable {
        var cancelled = false
    }

    struct Item {
        var due: C.Instant
        /// The order of scheduling: actions due at the same time run in this order.
        let order: Int
        let interval: Duration?
        let action: () -> Void
        /// Only for a repeating action.
        let mark: Mark?

        func runsBefore(_ other: Item) -> Bool {
            due < other.due || (due == other.due && order < other.order)
        }

        var isCancelled: Bool { mark?.cancelled ?? false }
    }

    private let clock: C
    private let lock = Lock()
    private var heap = ActionHeap<Item>()
    private var nextOrder = 0
    /// Cancelled repeating actions still in the heap.
    private var cancelledInHeap = 0
    private var running = false
    /// The driver's wait for the earliest item, cancelled when an earlier one arrives.
    private var sleeper: Task<Void, any Error>?
    private var sleepingUntil: C.Instant?

    init(clock: C) {
        self.clock = clock
    }

    /// Adds an action; for a repeating one (`interval` given) returns its mark, for
    /// ``cancel(_:)``.
    @discardableResult
    func add(due: C.Instant, interval: Duration?, action: @escaping () -> Void) -> Mark? {
        let mark = interval == nil ? nil : Mark()
        lock.acquire()
        let order = nextOrder
        nextOrder += 1
        heap.insert(Item(due: due, order: order, interval: interval, action: action, mark: mark))
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
        return mark
    }

    var heldCount: Int {
        lock.withLock { heap.count }
    }

    /// Stops a repeating action: it will not run again, and leaves the heap when it reaches the
    /// top, or sooner when cancelled actions make up most of the heap.
    func cancel(_ mark: Mark) {
        var dropped: [Item] = []
        lock.acquire()
        if !mark.cancelled {
            mark.cancelled = true
            cancelledInHeap += 1
            if cancelledInHeap > 64 && cancelledInHeap * 2 > heap.count {
                dropped = heap.removeAll { $0.isCancelled }
                cancelledInHeap = 0
            }
        }
        lock.release()
        withExtendedLifetime(dropped) {}  // the actions are released here, outside the lock
    }

    /// Runs the items in order, waiting on the clock for each, until none is left.
    private func drive() async {
        while true {
            lock.acquire()
            guard let first = heap.first else {
                running = false
                lock.release()
                return
            }
            if first.isCancelled {
                let dropped = heap.removeFirst()
                cancelledInHeap -= 1
                lock.release()
                withExtendedLifetime(dropped) {}  // released outside the lock
                continue
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
            if let interval = first.interval {
                var next = first
                next.due = first.due.advanced(by: interval)
                heap.replaceFirst(with: next)
            } else {
                _ = heap.removeFirst()
            }
            lock.release()
            first.action()
        }
    }
}

/// A binary min-heap of items that know which of two runs first.
private struct ActionHeap<Item> where Item: HeapOrdered {
    private var items: [Item] = []

    var count: Int { items.count }
    var first: Item? { items.first }

    mutating func insert(_ item: Item) {
        items.append(item)
        siftUp(items.count - 1)
    }

    /// Removes and returns the first item; the heap must not be empty.
    mutating func removeFirst() -> Item {
        let first = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return first
    }

    /// Replaces the first item (a repeating action's next run) in one pass.
    mutating func replaceFirst(with item: Item) {
        items[0] = item
        siftDown(0)
    }

    /// Removes every item that `shouldRemove` picks and restores the heap order in O(n);
    /// returns the removed items.
    mutating func removeAll(where shouldRemove: (Item) -> Bool) -> [Item] {
        var kept: [Item] = []
        var removed: [Item] = []
        kept.reserveCapacity(items.count)
        for item in items {
            if shouldRemove(item) { removed.append(item) } else { kept.append(item) }
        }
        items = kept
        var index = items.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
        return removed
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let item = items[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard item.runsBefore(items[parent]) else { break }
            items[child] = items[parent]
            child = parent
        }
        items[child] = item
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let item = items[parent]
        let count = items.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && items[child + 1].runsBefore(items[child]) { child += 1 }
            guard items[child].runsBefore(item) else { break }
            items[parent] = items[child]
            parent = child
        }
        items[parent] = item
    }
}

/// An item of an ``ActionHeap``.
private protocol HeapOrdered {
    /// Whether this item comes out of the heap before `other`.
    func runsBefore(_ other: Self) -> Bool
}

extension ClockRunner.Item: HeapOrdered {}
