// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// `retry`, in the shape of Apple's: one object is the subscriber of every attempt and the
/// subscriber's subscription.
/// - The subscriber gets this subscription when the first attempt's comes; each later
///   attempt is asked for the subscriber's outstanding demand when its subscription comes.
/// - A value beyond that demand (or before any subscription) traps. Demand the subscriber
///   returns for a value is asked of the upstream at once and `.none` is returned.
/// - A failure subscribes again while chances remain: `retries` counts down to zero and then
///   the failure goes on (a negative count never reaches zero, so it retries for ever, as
///   Apple's does); `nil` retries for ever. A failure during the subscribe of an attempt is
///   handled after it returns, so a publisher that fails at once does not grow the stack.
/// - A completion before any subscription goes on; after the end or a cancel nothing does,
///   and the subscriber is released (docs/DESIGN.md, Memory).
final class RetrySubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    typealias Input = Upstream.Output
    typealias Failure = Upstream.Failure

    private let lock = Lock()
    private let upstream: Upstream
    /// `nil` after the end or a cancel.
    private var downstream: Downstream?
    private var subscription: Subscription?
    /// Retries left; `nil` is unlimited.
    private var remaining: Int?
    private var demand = Subscribers.Demand.none
    private var subscriptionSent = false
    /// Whether an attempt is being subscribed on this thread's stack, and whether it failed
    /// meanwhile so that the loop in `receive(completion:)` must subscribe again.
    private var subscribing = false
    private var failedWhileSubscribing = false

    init(upstream: Upstream, downstream: Downstream, retries: Int?) {
        self.upstream = upstream
        self.downstream = downstream
        self.remaining = retries
    }

    var description: String { "Retry" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        lock.acquire()
        guard let downstream, self.subscription == nil else {
            lock.release()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        let demand = self.demand
        let sendSubscription = !subscriptionSent
        subscriptionSent = true
        lock.release()
        if sendSubscription { downstream.receive(subscription: self) }
        if demand != .none { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return .none
        }
        precondition(demand > 0, "Retry received a value its subscriber did not request")
        demand -= 1
        lock.release()
        let more = downstream.receive(input)
        guard more > 0 else { return .none }
        lock.acquire()
        demand += more
        let subscription = self.subscription
        lock.release()
        subscription?.request(more)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return
        }
        if case .failure = completion, remaining != 0 {
            subscription = nil
            remaining = remaining.map { $0 - 1 }
            if subscribing {
                failedWhileSubscribing = true
                lock.release()
                return
            }
            repeat {
                subscribing = true
                failedWhileSubscribing = false
                lock.release()
                upstream.subscribe(self)
                lock.acquire()
                subscribing = false
            } while failedWhileSubscribing && self.downstream != nil
            lock.release()
            return
        }
        self.downstream = nil
        let subscription = self.subscription.take()
        lock.release()
        withExtendedLifetime(subscription) {}  // released here, outside the lock
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        // Apple's `retry` does not check for `.none` here.
        lock.acquire()
        guard downstream != nil else {
            lock.release()
            return
        }
        self.demand += demand
        let subscription = self.subscription
        lock.release()
        subscription?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let subscription = self.subscription.take()
        lock.release()
        subscription?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
