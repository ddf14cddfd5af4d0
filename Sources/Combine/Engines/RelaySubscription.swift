// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// What a ``RelaySubscription`` does on its way: its name, what it does when the upstream's
/// subscription arrives, and what each value becomes.
protocol RelayStep {
    associatedtype Input
    associatedtype Output
    /// The subscription's description, as Apple's.
    var name: String { get }
    /// The upstream's subscription was accepted; the subscriber is about to be handed this one.
    func start()
    func relay(_ input: Input) -> Output
}

/// `multicast`: each value passes as it is.
struct MulticastStep<Value>: RelayStep {
    var name: String { "Multicast" }
    func start() {}
    @inline(__always) func relay(_ input: Value) -> Value { input }
}

/// Stands between an upstream and one subscriber and asks the upstream itself for the demand
/// the subscriber returns for a value (returning `.none`), as Apple's `Multicast` (between the
/// subject and each subscriber) and `measureInterval` do. Its requests, `.none` included, and
/// its cancel go upstream. As Apple's, events before the subscription are dropped and a cancel
/// before it is ignored; at the end and on cancel the subscriber is released (docs/DESIGN.md,
/// Memory). Empty mirror, as Apple's.
final class RelaySubscription<Step: RelayStep, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Step.Output {
    typealias Input = Step.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private let step: Step
    private var downstream: Downstream?
    /// The upstream's subscription; `nil` before it comes and after the end.
    private var subjectSubscription: Subscription?
    private var subscribed = false

    init(downstream: Downstream, step: Step) {
        self.downstream = downstream
        self.step = step
    }

    var description: String { step.name }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        lock.acquire()
        guard !subscribed, let downstream else {
            lock.release()
            subscription.cancel()
            return
        }
        subscribed = true
        subjectSubscription = subscription
        lock.release()
        step.start()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard let subscription = subjectSubscription, let downstream else {
            lock.release()
            return .none
        }
        lock.release()
        let more = downstream.receive(step.relay(input))
        if more > 0 { subscription.request(more) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard subjectSubscription != nil, let downstream = self.downstream.take() else {
            lock.release()
            return
        }
        let subscription = subjectSubscription.take()
        lock.release()
        withExtendedLifetime(subscription) {}  // released here, outside the lock
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { subjectSubscription }?.request(demand)
    }

    func cancel() {
        lock.acquire()
        guard let subscription = subjectSubscription.take() else {
            lock.release()
            return
        }
        let downstream = self.downstream.take()
        lock.release()
        subscription.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
