/// Stands between a multicast's subject and one subscriber, as Apple's `Multicast` does: the
/// subscriber's subscription ("Multicast"), which passes requests and the cancel to the
/// subject's subscription, and asks the subject itself for the demand the subscriber returns
/// for a value (returning `.none`). As Apple's, events before the subscription are dropped and
/// a cancel before it is ignored; at the end and on cancel the subscriber is released
/// (DESIGN.md, Memory).
final class MulticastSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    /// The subject's subscription; `nil` before it comes and after the end.
    private var subjectSubscription: Subscription?
    private var subscribed = false

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "Multicast" }
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
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard let subscription = subjectSubscription, let downstream else {
            lock.release()
            return .none
        }
        lock.release()
        let more = downstream.receive(input)
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
        _ = subscription  // released here, outside the lock
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
        _ = downstream  // released here, outside the lock
    }
}
