/// The engine of the time operators — `debounce`, `throttle`, `timeout` and
/// `collect(_:options:)` by time: a ``FanIn`` delivery (within demand, one call at a time,
/// nested when re-entrant) fed by actions that run on the operator's scheduler, with one
/// upstream subscription and at most one timer.
///
/// A subclass reacts to the upstream in ``upstreamValue(_:)`` and ``upstreamCompleted(_:)``,
/// to its timer in ``timerFired(_:)`` and to the subscriber in ``FanIn/didRequest(_:)``. It
/// changes its state under ``FanIn/lock`` and calls the scheduler, the upstream, user closures
/// and ``FanIn/drain()`` only after releasing it.
///
/// Every action handed to the scheduler holds the subscription weakly: a cancelled or
/// completed subscription is released at once, not when its last timer would have fired.
class ScheduledSubscription<Input, Downstream: Subscriber, Context: Scheduler>: FanIn<Downstream>,
    @unchecked Sendable
{
    typealias Stride = Context.SchedulerTimeType.Stride
    typealias Completion = Subscribers.Completion<Downstream.Failure>

    let scheduler: Context
    let options: Context.SchedulerOptions?
    private var upstream: Subscription?
    /// The upstream completed, or this subscription cancelled it: nothing more comes from it.
    private var upstreamEnded = false
    /// Demand asked of the upstream before its subscription arrived.
    private var unsentUpstreamDemand = Subscribers.Demand.none
    private var timer: Cancellable?
    /// Identifies the running timer; bumped whenever the timer is restarted or stopped, so a
    /// firing of a replaced timer is recognised and ignored.
    private var timerGeneration = 0

    init(downstream: Downstream, name: String, scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream, name: name)
    }

    /// Hands this subscription to the subscriber, then subscribes it to `upstream`.
    final func attach<Upstream: Publisher>(to upstream: Upstream)
    where Upstream.Output == Input, Upstream.Failure == Downstream.Failure {
        start()
        didStart()
        upstream.subscribe(Child(owner: self))
    }

    // MARK: For subclasses to override

    /// The subscriber has its subscription; the upstream is about to be subscribed.
    func didStart() {}

    /// A value from the upstream. - Returns: The demand to add upstream.
    func upstreamValue(_ input: Input) -> Subscribers.Demand { .none }

    /// The upstream completed (it is already forgotten; it will not be cancelled).
    func upstreamCompleted(_ completion: Completion) {}

    /// The timer started by ``restartTimer(every:if:)`` that returned `generation` fired; it
    /// may since have been replaced: check ``isCurrentTimerLocked(_:)``.
    func timerFired(_ generation: Int) {}

    // MARK: For subclasses (call with `lock` held)

    /// Whether upstream values still count: the upstream has not ended and no completion
    /// was produced.
    final var isLiveLocked: Bool { !upstreamEnded && !isTerminated }

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
    /// Call ``FanIn/drain()`` after releasing the lock.
    @discardableResult
    final func enqueueWithinDemandLocked(_ output: Downstream.Input, reserved: Int = 0) -> Bool {
        guard unqueuedDemandLocked > reserved else { return false }
        enqueueLocked(output)
        return true
    }

    // MARK: For subclasses (call without the lock)

    /// Asks the upstream for `demand` (remembered until the upstream subscription arrives).
    final func requestUpstream(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let subscription: Subscription? = lock.withLock {
            guard let upstream = self.upstream else {
                if !upstreamEnded { unsentUpstreamDemand += demand }
                return nil
            }
            return upstream
        }
        subscription?.request(demand)
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
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in
            self?.timerFired(generation)
        }
        // A scheduler that runs the action at once may have stopped the timer already.
        let kept: Bool = lock.withLock {
            guard generation == timerGeneration, !isTerminated else { return false }
            self.timer = timer
            return true
        }
        if !kept { timer.cancel() }
        return generation
    }

    /// Stops the timer.
    final func stopTimer() {
        lock.withLock { stopTimerLocked() }?.cancel()
    }

    /// Delivers `output` (whose demand is already accounted for) and then `completion`, each
    /// when given.
    final func emit(_ output: Downstream.Input?, then completion: Completion?) {
        if let output {
            lock.withLock { enqueueLocked(output) }
            drain()
        }
        guard let completion else { return }
        let timer = lock.withLock {
            finishLocked(completion)
            return stopTimerLocked()
        }
        timer?.cancel()
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

    // MARK: Cancellation

    /// Stops the timer and cancels the upstream (once).
    override func cancelUpstreams() {
        let (upstream, timer): (Subscription?, Cancellable?) = lock.withLock {
            upstreamEnded = true
            defer { self.upstream = nil }
            return (self.upstream, stopTimerLocked())
        }
        timer?.cancel()
        upstream?.cancel()
    }

    // MARK: Upstream

    private func upstreamSubscribed(_ subscription: Subscription) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard upstream == nil, isLiveLocked else { return nil }
            upstream = subscription
            defer { unsentUpstreamDemand = .none }
            return unsentUpstreamDemand
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    private func upstreamEnded(with completion: Completion) {
        var finishedUpstream: Subscription?  // released after the lock
        let first: Bool = lock.withLock {
            guard !upstreamEnded else { return false }
            upstreamEnded = true
            finishedUpstream = upstream.take()
            return true
        }
        _ = finishedUpstream
        if first { upstreamCompleted(completion) }
    }

    private struct Child: Subscriber, CustomStringConvertible {
        typealias Failure = Downstream.Failure

        let owner: ScheduledSubscription
        let combineIdentifier = CombineIdentifier()
        var description: String { owner.description }

        func receive(subscription: Subscription) { owner.upstreamSubscribed(subscription) }
        func receive(_ input: Input) -> Subscribers.Demand { owner.upstreamValue(input) }
        func receive(completion: Completion) { owner.upstreamEnded(with: completion) }
    }
}
