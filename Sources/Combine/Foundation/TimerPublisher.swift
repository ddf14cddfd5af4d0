// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import CombineSynchronization
import Foundation
import Synchronization

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// The publisher is connectable: its timer starts on `connect()`, or on the first
    /// subscription with `autoconnect()`. A tick finds each subscriber with or without demand;
    /// a subscriber without demand misses that tick (ticks are not buffered).
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .default)
    ///     .autoconnect()
    ///     .sink { date in print("tick at", date) }   // --d--d--d--…
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events. For example, a value of `0.5`
    ///     publishes an event approximately every half-second.
    ///   - tolerance: The allowed timing variance when emitting events. Apple's `publish`
    ///     does not pass it on: the publisher's `tolerance` is `nil` whatever is given here, and
    ///     so it is here (code ported from Apple's platforms sees the same). To set a
    ///     tolerance, make a `Timer.TimerPublisher` with its initialiser.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A publisher that repeatedly emits the current date on the given interval.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop, in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> TimerPublisher {
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval.
    ///
    /// Nothing is published until ``connect()``: it adds one repeating `Timer` to ``runLoop``
    /// in ``mode``, and every subscriber receives its ticks, on the run loop's thread, as far
    /// as its own demand allows — a tick that finds a subscriber without demand is dropped for
    /// that subscriber. Cancelling the connection invalidates the timer; subscribers stay
    /// attached (without completion) and a later `connect()` starts a new timer.
    ///
    /// Use ``ConnectablePublisher/autoconnect()`` to connect on the first subscription and disconnect when
    /// the last subscriber cancels.
    public final class TimerPublisher: ConnectablePublisher {
        /// The kind of values published: the date of each tick.
        public typealias Output = Date

        /// The timer never fails.
        public typealias Failure = Never

        /// The interval on which to publish events, in seconds.
        public let interval: TimeInterval

        /// The allowed timing variance when emitting events; `nil` allows any variance.
        public let tolerance: TimeInterval?

        /// The run loop on which the timer runs.
        public let runLoop: RunLoop

        /// The run loop mode in which the timer runs.
        public let mode: RunLoop.Mode

        /// Scheduler options passed to the timer.
        public let options: RunLoop.SchedulerOptions?

        private let hub: TimerHub

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        ///
        /// - Parameters:
        ///   - interval: The interval on which to publish events.
        ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`,
        ///     which allows any variance.
        ///   - runLoop: The run loop on which the timer runs.
        ///   - mode: The run loop mode in which to run the timer.
        ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
            hub = TimerHub(interval: interval, tolerance: tolerance, runLoop: runLoop, mode: mode)
        }

        /// Attaches `subscriber`, which receives the ticks of the current and later connections
        /// within its demand.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let subscription = TimerSubscription(downstream: subscriber, hub: hub)
            hub.attach(subscription)
            subscriber.receive(subscription: subscription)
        }

        /// Schedules the timer on the run loop, so that attached subscribers start receiving its
        /// ticks.
        ///
        /// Connecting while connected changes nothing and returns a cancellable for the same
        /// connection.
        ///
        /// - Returns: A `Cancellable` that invalidates the timer and ends the connection.
        public func connect() -> Cancellable {
            hub.connect()
        }
    }
}

/// The state shared by a timer publisher, its connection and its subscriptions: the running
/// timer and the subscriptions that receive its ticks.
///
/// `@unchecked Sendable`: every stored property is read and written under `lock`, except the
/// immutable configuration. The `RunLoop` is only asked to add a timer, and the `Timer` only to
/// invalidate, both of which Foundation's run loop does under its own lock from any thread.
private final class TimerHub: @unchecked Sendable {
    private struct State {
        var timer: Timer?
        var connection: TimerConnection?
        var subscriptions: [ObjectIdentifier: TickReceiver] = [:]
    }

    private let interval: TimeInterval
    private let tolerance: TimeInterval?
    private let runLoop: RunLoop
    private let mode: RunLoop.Mode
    private let lock = Lock()
    private var state = State()

    init(interval: TimeInterval, tolerance: TimeInterval?, runLoop: RunLoop, mode: RunLoop.Mode) {
        self.interval = interval
        self.tolerance = tolerance
        self.runLoop = runLoop
        self.mode = mode
    }

    /// A connection whose cancellable was dropped without cancelling ends with the publisher.
    deinit {
        state.timer?.invalidate()
    }

    func attach(_ subscription: TickReceiver) {
        lock.withLock { state.subscriptions[ObjectIdentifier(subscription)] = subscription }
    }

    func detach(_ subscription: TickReceiver) {
        lock.withLock { _ = state.subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) }
    }

    func connect() -> Cancellable {
        let (connection, timerToStart): (TimerConnection, Timer?) = lock.withLock {
            if let connection = state.connection { return (connection, nil) }
            let connection = TimerConnection(hub: self)
            let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) {
                [weak self] _ in self?.tick()
            }
            timer.tolerance = tolerance ?? 0
            state.connection = connection
            state.timer = timer
            return (connection, timer)
        }
        if let timerToStart { runLoop.add(timerToStart, forMode: mode) }
        return connection
    }

    func disconnect(_ connection: TimerConnection) {
        let timer: Timer? = lock.withLock {
            guard state.connection === connection else { return nil }
            state.connection = nil
            defer { state.timer = nil }
            return state.timer
        }
        timer?.invalidate()
    }

    private func tick() {
        let receivers = lock.withLock { Array(state.subscriptions.values) }
        let date = Date()
        for receiver in receivers {
            receiver.receiveTick(date)
        }
    }
}

/// What the hub delivers each tick to.
private protocol TickReceiver: AnyObject, Sendable {
    func receiveTick(_ date: Date)
}

/// One connection of a timer publisher; cancelling it invalidates the timer.
private final class TimerConnection: Cancellable, Sendable {
    private let hub: TimerHub

    init(hub: TimerHub) {
        self.hub = hub
    }

    func cancel() {
        hub.disconnect(self)
    }
}

/// A subscriber's subscription to a timer publisher: its demand, and the subscriber until it
/// cancels.
///
/// `@unchecked Sendable`: `downstream` and `demand` are read and written only under `lock`; the
/// subscriber is called after the lock is released, from the run loop's thread.
/// As Apple's, it has no description or mirror of its own.
private final class TimerSubscription<Downstream: Subscriber>: Subscription, TickReceiver, @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
    private let lock = Lock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private weak var hub: TimerHub?

    init(downstream: Downstream, hub: TimerHub) {
        self.downstream = downstream
        self.hub = hub
    }

    func request(_ demand: Subscribers.Demand) {
        apiPrecondition(demand != .none, "API Violation: demand must not be zero")
        lock.withLock {
            guard downstream != nil else { return }
            self.demand += demand
        }
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        demand = .none
        let hub = self.hub
        lock.release()
        hub?.detach(self)
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }

    func receiveTick(_ date: Date) {
        let receiver: Downstream? = lock.withLock {
            guard let downstream, demand > .none else { return nil }
            demand -= 1
            return downstream
        }
        guard let receiver else { return }
        let more = receiver.receive(date)
        guard more > .none else { return }
        lock.withLock {
            if downstream != nil { demand += more }
        }
    }
}
#endif
