/// The one implementation behind `receive(on:)` and `delay`: every value and the completion
/// travel to the subscriber through a scheduling function; the subscription, requests and
/// cancellation go straight upstream.
///
/// - The subscription is handed down at once, on the thread that subscribed.
/// - A value is scheduled and `.none` returned upstream; when it runs, the demand the
///   subscriber returns is requested from upstream.
/// - After `cancel()`, actions already scheduled deliver nothing.
/// - Nothing is called while the lock is held; the scheduler decides which thread delivers
///   (a serial scheduler keeps upstream's order).
///
/// The per-value path is `@inlinable`: a value captured in the scheduled closure by
/// unspecialised code would cost a metadata look-up per value.
@usableFromInline
final class ScheduledDelivery<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, @unchecked Sendable
{
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum State {
        case awaitingSubscription
        case subscribed(Subscription)
        /// The completion is on its way; queued values may still ask for more.
        case completing(Subscription)
        case done
    }

    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var state = State.awaitingSubscription
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline let scheduleAction: (@escaping () -> Void) -> Void
    @usableFromInline let description: String

    /// - Parameter schedule: Hands an action to the scheduler (at once, or after a delay).
    @inlinable
    init(downstream: Downstream, name: String, schedule: @escaping (@escaping () -> Void) -> Void) {
        self.downstream = downstream
        self.description = name
        self.scheduleAction = schedule
    }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @inlinable
    var upstreamLocked: Subscription? {
        switch state {
        case .subscribed(let subscription), .completing(let subscription): subscription
        case .awaitingSubscription, .done: nil
        }
    }

    // MARK: From upstream

    @usableFromInline
    func receive(subscription: Subscription) {
        let downstream: Downstream? = lock.withLock {
            guard case .awaitingSubscription = state else { return nil }
            state = .subscribed(subscription)
            return self.downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let live: Bool = lock.withLock {
            if case .subscribed = state { return true }
            return false
        }
        if live { scheduleAction { self.deliver(input) } }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let live: Bool = lock.withLock {
            guard case .subscribed(let subscription) = state else { return false }
            state = .completing(subscription)
            return true
        }
        if live { scheduleAction { self.deliver(completion) } }
    }

    // MARK: On the scheduler

    @inlinable
    func deliver(_ input: Input) {
        guard let downstream = lock.withLock({ self.downstream }) else { return }
        let more = downstream.receive(input)
        guard more > 0 else { return }
        lock.withLock { upstreamLocked }?.request(more)
    }

    @inlinable
    func deliver(_ completion: Subscribers.Completion<Failure>) {
        var upstream: Subscription?  // released after the lock
        let downstream: Downstream? = lock.withLock {
            guard case .completing(let subscription) = state else { return nil }
            upstream = subscription
            state = .done
            return self.downstream.take()
        }
        _ = upstream
        downstream?.receive(completion: completion)
    }

    // MARK: From downstream

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.withLock { upstreamLocked }?.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        let state = self.state
        self.state = .done
        let downstream = self.downstream.take()
        lock.release()
        if case .subscribed(let upstream) = state { upstream.cancel() }
        _ = downstream  // released here, outside the lock
    }
}
