// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that waits for the upstream to go quiet for `dueTime` and then sends the
    /// latest element it received.
    ///
    /// ```
    /// upstream (dueTime 2):  a-b-----cd-e-------|
    /// debounce:              ----b--------e-----|
    /// ```
    ///
    /// Each value restarts the wait; the latest value is delivered on `scheduler` once
    /// `dueTime` passes without another. It asks the upstream for unlimited values. A value
    /// that falls due while the subscriber has no outstanding demand is dropped. A completion
    /// is delivered on `scheduler` at its next turn — without the value still waiting, which
    /// is dropped, as Apple's Combine does.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// How long the upstream must stay without a new element before the latest one is
        /// sent.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler that times the quiet period and delivers the elements.
        public let scheduler: Context

        /// Options passed to `scheduler` when the timers are scheduled.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that sends the upstream's latest element once `dueTime` has
        /// passed without another.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            DebounceSubscription(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options)
                .subscribeUpstream(upstream)
        }
    }
}

/// The subscription of `debounce`: the latest value waits for a timer that each new value
/// restarts.
///
/// As Apple's: each value starts a repeating timer of its own (`schedule(after:interval:...)`
/// `dueTime` from now, every `dueTime`) and stops the previous one; the first firing of the
/// current timer stops it and delivers the value if the subscriber has demand for it (else it
/// is dropped). A scheduler that records its calls sees Apple's calls. (An earlier version
/// kept one action per burst and re-armed it, about 2.3 times cheaper per value on a virtual
/// scheduler, but a recording or token-counting scheduler could tell; see Benchmarks/RESULTS.md.)
private final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>:
    TimedSubscription<Downstream.Input, Downstream, Context>, @unchecked Sendable
{
    private let dueTime: Stride
    /// The latest value, waiting for its quiet period to pass.
    private var pending: Downstream.Input?

    init(downstream: Downstream, dueTime: Stride, scheduler: Context, options: Context.SchedulerOptions?) {
        self.dueTime = dueTime
        super.init(
            downstream: downstream, name: "Debounce", scheduler: scheduler, options: options,
            edges: TimedEdges(earlyCancel: .ignored, zeroDemand: .traps))
    }

    /// As Apple's: the subscriber, its outstanding demand and the value waiting.
    override var customMirror: Mirror {
        let (downstream, demand, pending) = lock.withLock { (self.downstream, self.demand, self.pending) }
        let none = Optional<Any>.none as Any
        return Mirror(
            self,
            children: [
                ("downstream", downstream.map { $0 as Any } ?? none), ("downstreamDemand", demand),
                ("currentValue", pending.map { $0 as Any } ?? none),
            ])
    }

    /// Apple's: the upstream is asked for everything after the subscriber has the subscription.
    override func didHandOff() {
        requestUpstream(.unlimited)
    }

    override func upstreamValue(_ input: Downstream.Input) -> Subscribers.Demand {
        var replaced: Downstream.Input?  // the value this one supersedes, released after the lock
        restartTimer(every: dueTime) {
            guard isLiveLocked else { return false }
            replaced = pending
            pending = input
            return true
        }
        withExtendedLifetime(replaced) {}
        return .none
    }

    override func timerFired(_ generation: Int) {
        var due: Downstream.Input?  // released after the lock when the subscriber had no demand for it
        let (timer, delivered): (Cancellable?, Bool) = lock.withLock {
            guard isCurrentTimerLocked(generation), !isTerminated else { return (nil, false) }
            let timer = stopTimerLocked()
            due = pending.take()
            guard let value = due, enqueueWithinDemandLocked(value) else { return (timer, false) }
            due = nil
            return (timer, true)
        }
        timer?.cancel()
        withExtendedLifetime(due) {}
        if delivered { drain() }
    }

    override func upstreamCompleted(_ completion: Completion) {
        _ = lock.withLock { pending.take() }  // released here, outside the lock
        stopTimer()
        completeOnScheduler(completion, options: nil)
    }
}

extension Publisher {
    /// Sends the upstream's latest element once `dueTime` has passed without a newer one.
    ///
    /// ![A marble diagram of debounce, drawn from a run of it](marble-debounce)
    ///
    /// ```
    /// upstream (dueTime 2):  a-b-----cd-e-------|
    /// debounce:              ----b--------e-----|
    /// ```
    ///
    /// ```swift
    /// searchField.textPublisher
    ///     .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
    ///     .sink { query in search(query) }
    /// // search runs once typing pauses for 300 ms, with the text typed so far
    /// ```
    ///
    /// Values are delivered on `scheduler`. A value that falls due while the subscriber has
    /// no outstanding demand is dropped; when the upstream completes, a value still waiting
    /// is dropped and the completion is delivered on `scheduler`.
    ///
    /// - Parameters:
    ///   - dueTime: How long the upstream must stay without a new element before the latest
    ///     one is sent; each element starts the wait again.
    ///   - scheduler: The scheduler that times the wait and delivers elements and completion.
    ///   - options: Options passed to `scheduler` when the timers are scheduled.
    /// - Returns: A `Publishers.Debounce` publisher that sends an element only after a quiet
    ///   period of `dueTime`.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
