// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension TestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// A Swift `Clock` that follows this scheduler's virtual time: `async` code that sleeps on
    /// it wakes when the test advances the scheduler past its deadline, so code that mixes
    /// `Task.sleep(for:clock:)` and Combine's time operators runs on one virtual clock.
    ///
    /// ```swift
    /// let scheduler = TestScheduler<VirtualTime, Never>(now: .zero)
    /// let clock = scheduler.clock
    /// let task = Task { try await clock.sleep(for: .seconds(5)); print("woke") }
    /// scheduler.advance(by: .seconds(5))   // the task wakes and prints "woke"
    /// ```
    ///
    /// - Returns: A ``TestSchedulerClock`` whose instants are nanoseconds of this scheduler's
    ///   virtual time.
    public var clock: TestSchedulerClock {
        TestSchedulerClock(scheduler: self)
    }
}

/// A Swift `Clock` driven by a ``TestScheduler``: its `now` is the scheduler's virtual time,
/// and `sleep(until:tolerance:)` schedules the wake-up as an action on the scheduler, so the
/// sleeper resumes when the test advances the scheduler to the deadline (or past it).
///
/// ```swift
/// let scheduler = TestScheduler<VirtualTime, Never>(now: .zero)
/// let sleeper = Task { try await scheduler.clock.sleep(for: .seconds(1)) }
/// scheduler.advance(by: .seconds(1))   // the sleeper resumes
/// ```
///
/// A sleep cancelled before its deadline throws `CancellationError`, and its action is
/// cancelled.
public struct TestSchedulerClock: Clock, Sendable {
    /// The clock's durations: Swift's `Duration`.
    public typealias Duration = Swift.Duration

    /// A point of the scheduler's virtual time.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// Nanoseconds since virtual time zero.
        public var nanoseconds: Int

        /// Creates the instant `nanoseconds` after virtual time zero.
        ///
        /// - Parameter nanoseconds: Nanoseconds since virtual time zero.
        public init(nanoseconds: Int) {
            self.nanoseconds = nanoseconds
        }

        /// The instant a duration away from this one.
        ///
        /// - Parameter duration: How far to move; rounded down to whole nanoseconds.
        /// - Returns: The moved instant.
        /// Saturates at the earliest and latest instants, as `DispatchTime` does, so that a
        /// sleep "for ever" waits until the end of virtual time instead of trapping.
        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(nanoseconds: saturatingSum(nanoseconds, Self.nanoseconds(of: duration)))
        }

        /// The duration from this instant to another.
        ///
        /// - Parameter other: The other instant.
        /// - Returns: The duration between the two.
        public func duration(to other: Instant) -> Swift.Duration {
            // Swift's `Duration` holds the difference of any two instants exactly.
            .nanoseconds(Int128(other.nanoseconds) - Int128(nanoseconds))
        }

        /// Whether this instant comes before another.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

        /// The instant in seconds, e.g. `1.5s`.
        public var description: String { "\(Double(nanoseconds) / 1e9)s" }

        /// The duration in whole nanoseconds, saturated to the range of `Int` (about ±292
        /// years).
        static func nanoseconds(of duration: Swift.Duration) -> Int {
            let (seconds, attoseconds) = duration.components
            let (whole, overflow) = Int(seconds).multipliedReportingOverflow(by: 1_000_000_000)
            if overflow { return seconds < 0 ? .min : .max }
            return saturatingSum(whole, Int(attoseconds / 1_000_000_000))
        }
    }

    /// The test scheduler whose virtual time the clock follows. (Not named `scheduler`:
    /// CombineExtras gives every clock a `scheduler` that runs Combine actions on it.)
    public let testScheduler: TestScheduler<VirtualTime, Never>

    /// Creates a clock that follows `scheduler`.
    ///
    /// - Parameter scheduler: The test scheduler whose virtual time the clock follows.
    public init(scheduler: TestScheduler<VirtualTime, Never>) {
        testScheduler = scheduler
    }

    /// The scheduler's virtual time now.
    public var now: Instant { Instant(nanoseconds: testScheduler.now.nanoseconds) }

    /// One nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until the scheduler's virtual time reaches `deadline`: at once if it has, or
    /// when the test advances the scheduler there.
    ///
    /// - Parameters:
    ///   - deadline: The virtual instant to wake at.
    ///   - tolerance: Ignored: the scheduler runs actions exactly at their due time.
    /// - Throws: `CancellationError` when the sleeping task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let wake = WakeOnce()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                wake.set(continuation)
                let scheduler = testScheduler
                let id = scheduler.scheduleAction(after: VirtualTime(nanoseconds: deadline.nanoseconds)) {
                    wake.resume(throwing: nil)
                }
                wake.onEnd { scheduler.cancelAction(id) }
            }
        } onCancel: {
            wake.resume(throwing: CancellationError())
        }
    }
}

/// One sleeper's continuation, resumed exactly once: by the scheduler's action or by the
/// task's cancellation, whichever comes first; then the scheduled action is cancelled.
private final class WakeOnce: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var outcome: (any Error)??
    private var cleanUp: (() -> Void)?

    func set(_ continuation: CheckedContinuation<Void, any Error>) {
        lock.acquire()
        if let outcome {
            lock.release()
            Self.resume(continuation, outcome)
            return
        }
        self.continuation = continuation
        lock.release()
    }

    func onEnd(_ cleanUp: @escaping () -> Void) {
        lock.acquire()
        if outcome != nil {
            lock.release()
            cleanUp()
            return
        }
        self.cleanUp = cleanUp
        lock.release()
    }

    func resume(throwing error: (any Error)?) {
        lock.acquire()
        guard outcome == nil else {
            lock.release()
            return
        }
        outcome = .some(error)
        let continuation = self.continuation
        self.continuation = nil
        let cleanUp = self.cleanUp
        self.cleanUp = nil
        lock.release()
        cleanUp?()
        if let continuation { Self.resume(continuation, error) }
    }

    private static func resume(_ continuation: CheckedContinuation<Void, any Error>, _ error: (any Error)?) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }
}

/// `a + b`, or the nearest bound of `Int` when the sum does not fit.
func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b < 0 ? .min : .max
}
