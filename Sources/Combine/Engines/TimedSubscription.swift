// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// Where a ``TimedSubscription`` stands with its upstream. Not nested in the generic
/// class, so that reading it looks up no type metadata.
enum TimedUpstreamState {
    case awaitingSubscription
    case subscribed
    /// The upstream completed (its subscription is kept until the completion is delivered,
    /// so that a cancel meanwhile still reaches it, as Apple's).
    case ended
}

/// What a time operator does at its edges, as Apple's: named where each operator creates its
/// subscription.
struct TimedEdges {
    enum EarlyCancel {
        /// A cancel before the upstream's subscription is final: that subscription is
        /// cancelled when it comes (throttle, collect by time).
        case final
        /// Ignored: the subscription that comes later is taken and handed on (timeout,
        /// debounce). Only the upstream side can send it: the subscriber has not been handed
        /// the subscription yet.
        case ignored
    }

    enum ZeroDemand {
        /// `request(.none)` traps (debounce, collect by time).
        case traps
        /// Ignored (throttle).
        case ignored
        /// Passed upstream (timeout).
        case forwardedUpstream
    }

    var earlyCancel: EarlyCancel
    var zeroDemand: ZeroDemand
    /// The operator's timer may not fire inside the `schedule(after:interval:...)` call that
    /// starts it (timeout, whose Apple version traps there on its own lock).
    var synchronousTimerTraps = false
}

/// The engine of the time operators — `debounce`, `throttle`, `timeout` and
/// `collect(_:options:)` by time: a ``QueuedSubscription`` delivery (within demand, one call at a time,
/// nested when re-entrant) fed by actions that run on the operator's scheduler, with one
/// upstream subscription and at most one timer.
///
/// Apple's shape: the subscription is itself the upstream's subscriber, and the subscriber is
/// handed it when the upstream's subscription arrives (``willHandOff()`` runs before,
/// ``didHandOff()`` after); a value, completion or request before that is ignored, a cancel
/// before it follows ``TimedEdges/earlyCancel``.
///
/// A subclass reacts to the upstream in ``upstreamValue(_:)`` and ``upstreamCompleted(_:)``,
/// to its timer in ``timerFired(_:)`` and to the subscriber in ``QueuedSubscription/didRequest(_:)``. It
/// changes its state under ``QueuedSubscription/lock`` and calls the scheduler, the upstream, user closures
/// and ``QueuedSubscription/drain(afterQueuing:)`` only after releasing it.
///
/// Every action handed to the scheduler holds the subscription weakly: a cancelled or
/// completed subscription is released at once, not when its last timer would have fired.
class TimedSubscription<Input, Downstream: Subscriber, Context: Scheduler>: QueuedSubscription<Downstream>, Subscriber,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Stride = Context.SchedulerTimeType.Stride
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    let scheduler: Context
    let options: Context.SchedulerOptions?
    let edges: TimedEdges
    private var state = TimedUpstreamState.awaitingSubscription
    private var upstream: Subscription?
    private var timer: Cancellable?
    /// Identifies the running timer; bumped whenever the timer is restarted or stopped, so a
    /// firing of a replaced timer is recognised and ignored.
    private var timerGeneration = 0
    /// The thread inside the scheduler call that starts the timer (see
    /// ``TimedEdges/synchronousTimerTraps``).
    private var startingTimerThread: UInt = 0

    init(
        downstream: Downstream, name: String, scheduler: Context, options: Context.SchedulerOptions?,
        edges: TimedEdges
    ) {
        self.scheduler = scheduler
        self.options = options
        self.edges = edges
        super.init(downstream: downstream, name: name)
    }

    var playgroundDescription: Any { description }

    /// Subscribes this subscription to `upstream`; the subscriber is handed it when the
    /// upstream's subscription arrives.
    final func subscribeUpstream<Upstream: Publisher>(_ upstream: Upstream)
    where Upstream.Output == Input, Upstream.Failure == Downstream.Failure {
        upstream.subscribe(self)
    }

    // MARK: For subclasses to override

    /// The upstream's subscription arrived; the subscriber is about to be handed this one.
    func willHandOff() {}

    /// The subscriber has been handed this subscription.
    func didHandOff() {}

    /// A value from the upstream. - Returns: The demand to add upstream. Every subclass
    /// overrides it (the base traps: a time operator that ignored its values would be a bug).
    func upstreamValue(_ input: Input) -> Subscribers.Demand {
        apiViolation("\(type(of: self)) must override upstreamValue(_:)")
    }

    /// The upstream completed (the first completion, while subscribed). Every subclass
    /// overrides it (the base traps).
    func upstreamCompleted(_ completion: Completion) {
        apiViolation("\(type(of: self)) must override upstreamCompleted(_:)")
    }

    /// The timer started by `restartTimer(every:if:)` that returned `generation` fired; it
    /// may since have been replaced: check `isCurrentTimerLocked(_:)`. A subclass that starts
    /// a timer overrides it (the base traps).
    func timerFired(_ generation: Int) {
        apiViolation("\(type(of: self)) starts a timer and must override timerFired(_:)")
    }

    // MARK: For subclasses (call with `lock` held)

    /// Whether upstream values still count: subscribed, the upstream has not ended and no
    /// completion was produced.
    final var isLiveLocked: Bool {
        if case .subscribed = state { return !isTerminated }
        return false
    }

    /// Whether `generation` identifies the running timer.
    final func isCurrentTimerLocked(_ generation: Int) -> Bool { generation == timerGeneration }

    /// Stops the timer; cancel the returned cancellable after releasing the lock.
    final func stopTimerLocked() -> Cancellable? {
        timerGeneration += 1
        defer { timer = nil }
        return timer
    }

    /// Queues `output` for delivery if the subscriber has demand left for it, beyond
    /// `reserved` outputs already promised; drops it otherwise, as Apple's time operators do.
    /// Call ``QueuedSubscription/drain(afterQueuing:)`` after releasing the lock.
    @discardableResult
    final func enqueueWithinDemandLocked(_ output: Downstream.Input, reserved: Int = 0) -> Bool {
        guard unqueuedDemandLocked > reserved else { return false }
        enqueueLocked(output)
        return true
    }

    // MARK: For subclasses (call without the lock)

    /// Asks the upstream for `demand`; `.none` only when `evenIfNone` (timeout passes it on).
    final func requestUpstream(_ demand: Subscribers.Demand, evenIfNone: Bool = false) {
        guard demand > 0 || evenIfNone else { return }
        lock.withLock { upstream }?.request(demand)
    }

    /// Starts the timer afresh: ``timerFired(_:)`` runs `interval` from now and then every
    /// `interval`, until the timer is restarted or stopped. `update` runs under the lock
    /// first; when it returns `false` nothing is started.
    ///
    /// - Returns: The generation of the started timer, `nil` if none was started.
    @discardableResult
    final func restartTimer(every interval: Stride, if update: () -> Bool = { true }) -> Int? {
        let started: (generation: Int, previous: Cancellable?)? = lock.withLock {
            guard update() else { return nil }
            let previous = stopTimerLocked()
            return (timerGeneration, previous)
        }
        guard let started else { return nil }
        started.previous?.cancel()
        let generation = started.generation
        let me = currentThreadID()
        if edges.synchronousTimerTraps { lock.withLock { startingTimerThread = me } }
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in
            self?.timerAction(generation)
        }
        // A scheduler that runs the action at once may have stopped the timer already.
        let kept: Bool = lock.withLock {
            startingTimerThread = 0
            guard generation == timerGeneration, !isTerminated else { return false }
            self.timer = timer
            return true
        }
        if !kept { timer.cancel() }
        return generation
    }

    private func timerAction(_ generation: Int) {
        if edges.synchronousTimerTraps {
            let me = currentThreadID()
            let insideStart = lock.withLock { startingTimerThread == me }
            if insideStart {
                apiViolation(
                    "\(description): the scheduler ran the timer inside schedule(after:interval:tolerance:options:_:); "
                        + "\(description.lowercased()) needs a scheduler that runs actions later")
            }
        }
        timerFired(generation)
    }

    /// Stops the timer.
    final func stopTimer() {
        lock.withLock { stopTimerLocked() }?.cancel()
    }

    /// Delivers `output` (whose demand is already accounted for) and then `completion`, each
    /// when given. With the completion, the upstream's subscription is let go.
    final func emit(_ output: Downstream.Input?, then completion: Completion?) {
        if let output {
            enqueueAndDrain(output)
        }
        guard let completion else { return }
        var upstream: Subscription?  // released after the lock, not cancelled: it has ended
        let timer = lock.withLock {
            if finishLocked(completion), case .ended = state { upstream = self.upstream.take() }
            return stopTimerLocked()
        }
        timer?.cancel()
        withExtendedLifetime(upstream) {}
        drain()
    }

    /// Schedules ``emit(_:then:)`` of `completion`, preceded by `output` when given, on the
    /// scheduler: after the deliveries already scheduled.
    final func completeOnScheduler(
        _ completion: Completion, after output: Downstream.Input? = nil, options: Context.SchedulerOptions?
    ) {
        scheduler.schedule(options: options) { [weak self] in
            self?.emit(output, then: completion)
        }
    }

    // MARK: Subscription

    override func request(_ demand: Subscribers.Demand) {
        let awaiting: Bool = lock.withLock {
            if case .awaitingSubscription = state { return true }
            return false
        }
        if awaiting { return }  // Apple's: a request before the subscription is ignored
        if demand == .none {
            switch edges.zeroDemand {
            case .traps: break
            case .ignored: return
            case .forwardedUpstream:
                let live = lock.withLock { downstream != nil }
                if live { didRequest(.none) }
                return
            }
        }
        super.request(demand)
    }

    override func cancel() {
        if case .ignored = edges.earlyCancel {
            let awaiting: Bool = lock.withLock {
                if case .awaitingSubscription = state { return true }
                return false
            }
            if awaiting { return }
        }
        super.cancel()
    }

    /// Stops the timer and cancels the upstream (once), also after the upstream completed
    /// while its completion waits to be delivered.
    override func cancelUpstreams() {
        let (upstream, timer): (Subscription?, Cancellable?) = lock.withLock {
            if case .subscribed = state { state = .ended }
            defer { self.upstream = nil }
            return (self.upstream, stopTimerLocked())
        }
        timer?.cancel()
        upstream?.cancel()
    }

    // MARK: Subscriber (the upstream)

    final func receive(subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard case .awaitingSubscription = state, !isTerminated else { return false }
            state = .subscribed
            upstream = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        willHandOff()
        start()
        didHandOff()
    }

    /// Each operator checks ``isLiveLocked`` in ``upstreamValue(_:)`` (under the lock it takes
    /// anyway), so a value before the subscription or after the end is ignored.
    final func receive(_ input: Input) -> Subscribers.Demand {
        upstreamValue(input)
    }

    final func receive(completion: Completion) {
        let first: Bool = lock.withLock {
            guard case .subscribed = state, !isTerminated else { return false }
            state = .ended
            return true
        }
        if first { upstreamCompleted(completion) }
    }
}
