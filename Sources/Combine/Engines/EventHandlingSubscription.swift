// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// Callbacks around every event that passes an operator, in Combine's order: each is called
/// just before the event goes on. The one implementation behind `handleEvents` and `print`.
struct EventCallbacks<Output, Failure: Error> {
    var subscription: ((Subscription) -> Void)?
    var output: ((Output) -> Void)?
    /// Called with every demand the subscriber returned for a value (after `output`).
    var demandReturned: ((Subscribers.Demand) -> Void)?
    var completion: ((Subscribers.Completion<Failure>) -> Void)?
    var cancel: (() -> Void)?
    var request: ((Subscribers.Demand) -> Void)?
}

/// Stands between an upstream and a subscriber, calling ``EventCallbacks`` as events pass,
/// with the edges of Apple's `handleEvents` and `print`:
/// - every subscription that arrives is reported, and a second one is then cancelled;
/// - values and a completion that come before the subscription are reported and passed on;
/// - a request or a cancel before the subscription is reported and otherwise ignored (the
///   subscription that comes later is taken);
/// - after the end or a cancel nothing is passed on and the subscriber is released (docs/DESIGN.md,
///   Memory); `handleEvents` releases its callbacks too, `print` keeps logging what still
///   arrives (a subscription, which it then cancels, a request, a cancel), as Apple's do.
final class EventHandlingSubscription<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var callbacks: EventCallbacks<Input, Failure>?
    private let reportsAfterEnd: Bool
    let description: String

    init(downstream: Downstream, callbacks: EventCallbacks<Input, Failure>, name: String, reportsAfterEnd: Bool) {
        self.downstream = downstream
        self.callbacks = callbacks
        self.description = name
        self.reportsAfterEnd = reportsAfterEnd
    }

    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: Subscription) {
        lock.acquire()
        let callbacks = self.callbacks
        lock.release()
        callbacks?.subscription?(subscription)
        lock.acquire()
        guard upstream == nil, let downstream else {
            lock.release()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.release()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        let target = downstream
        let callbacks = self.callbacks
        lock.release()
        guard let target else { return .none }
        callbacks?.output?(input)
        let more = target.receive(input)
        callbacks?.demandReturned?(more)
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        let target = downstream.take()
        let upstream = self.upstream.take()
        let callbacks = reportsAfterEnd ? self.callbacks : self.callbacks.take()
        lock.release()
        withExtendedLifetime(upstream) {}  // released here, outside the lock
        guard let target else { return }
        callbacks?.completion?(completion)
        target.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.acquire()
        let callbacks = self.callbacks
        let upstream = self.upstream
        lock.release()
        callbacks?.request?(demand)
        upstream?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let callbacks = self.callbacks
        let upstream = self.upstream.take()
        if upstream == nil {
            // Before a subscription that is still to be taken, or after the end.
            lock.release()
            callbacks?.cancel?()
            return
        }
        let downstream = self.downstream.take()
        if !reportsAfterEnd { self.callbacks = nil }
        lock.release()
        callbacks?.cancel?()
        upstream?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
