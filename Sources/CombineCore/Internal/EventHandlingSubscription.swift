/// Callbacks around every event that passes an operator, in Combine's order: each is called
/// just before the event goes on. The one implementation behind `handleEvents`, `print`
/// and `breakpoint`.
struct EventCallbacks<Output, Failure: Error> {
    var subscription: ((Subscription) -> Void)?
    var output: ((Output) -> Void)?
    /// Called with the demand the subscriber returned for a value (after `output`).
    var demandReturned: ((Subscribers.Demand) -> Void)?
    var completion: ((Subscribers.Completion<Failure>) -> Void)?
    var cancel: (() -> Void)?
    var request: ((Subscribers.Demand) -> Void)?
}

/// Stands between an upstream and a subscriber, calling ``EventCallbacks`` as events pass.
final class EventHandlingSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private let callbacks: EventCallbacks<Input, Failure>
    let description: String

    init(downstream: Downstream, callbacks: EventCallbacks<Input, Failure>, name: String) {
        self.downstream = downstream
        self.callbacks = callbacks
        self.description = name
    }

    func receive(subscription: Subscription) {
        let target: Downstream? = lock.withLock {
            guard upstream == nil, let downstream else { return nil }
            upstream = subscription
            return downstream
        }
        guard let target else {
            subscription.cancel()
            return
        }
        callbacks.subscription?(subscription)
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let target = lock.withLock({ downstream }) else { return .none }
        callbacks.output?(input)
        let more = target.receive(input)
        if more > 0 { callbacks.demandReturned?(more) }
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        let target = downstream.take()
        let upstream = self.upstream.take()
        lock.release()
        _ = upstream  // released here, outside the lock
        guard let target else { return }
        callbacks.completion?(completion)
        target.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        callbacks.request?(demand)
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let upstream = self.upstream.take()
        lock.release()
        if let upstream {
            callbacks.cancel?()
            upstream.cancel()
        }
        _ = downstream  // released here, outside the lock
    }
}
