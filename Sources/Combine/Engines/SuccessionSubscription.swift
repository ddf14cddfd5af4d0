// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// What follows the first source's completion.
enum Succession<Next, Failure: Error> {
    /// Continue with another publisher (`catch`, `append`); its completion is final.
    case switchTo(Next)
    /// Complete the subscriber.
    case complete(Subscribers.Completion<Failure>)
}

/// Which source a ``SuccessionSubscription`` child subscribes to.
protocol SuccessionSource {
    static var isSecond: Bool { get }
}

enum FirstSource: SuccessionSource {
    static var isSecond: Bool { false }
}

enum SecondSource: SuccessionSource {
    static var isSecond: Bool { true }
}

/// How a succession treats events its subscriber did not ask for, in the two shapes of
/// Apple's operators.
enum SuccessionEdges {
    /// `catch`, `tryCatch`: a first-source value beyond the outstanding demand (or before the
    /// subscription) traps, and so does a first-source failure before the subscription or
    /// after the switch (a `.finished` before the subscription is ignored); a request for
    /// `.none` traps. Mirror: `downstream`, `demand`.
    case strict
    /// `append`, `prepend` (`Concatenate`): such values and completions are dropped, a
    /// request before the subscription is kept for later, and nothing traps. Mirror: no
    /// children.
    case lenient
}

/// The one implementation behind `catch`, `tryCatch` and `append`/`prepend`, in the shape of
/// Apple's: a first source, then, as `next` decides on its completion, a second one.
/// - The subscriber gets this subscription when the first source's comes, not before.
/// - While the first source runs, the subscriber's outstanding demand is counted; the second
///   source is asked for what is left when its subscription comes.
/// - Unlike Apple's, a cancel is final whenever it comes (Apple's `catch` drops a cancel that
///   comes while the replacement is being subscribed, so the subscriber receives its values
///   anyway), and the subscriber and `next` (with the publisher it holds) are released at the
///   end and on cancel (docs/DESIGN.md, Memory).
final class SuccessionSubscription<First: Publisher, Second: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where First.Output == Downstream.Input, Second.Output == Downstream.Input {
    private enum State {
        case awaitingFirst
        case first(Subscription)
        /// The first source completed; waiting for the second's subscription.
        case awaitingSecond
        case second(Subscription)
        /// Finished, failed or cancelled.
        case done
    }

    private let lock = Lock()
    private var state = State.awaitingFirst
    private var demand = Subscribers.Demand.none
    private var downstream: Downstream?
    private var next: ((Subscribers.Completion<First.Failure>) -> Succession<Second, Downstream.Failure>)?
    private let convertFailure: (Second.Failure) -> Downstream.Failure
    private let edges: SuccessionEdges
    let description: String

    init(
        downstream: Downstream, name: String, edges: SuccessionEdges,
        convertFailure: @escaping (Second.Failure) -> Downstream.Failure,
        next: @escaping (Subscribers.Completion<First.Failure>) -> Succession<Second, Downstream.Failure>
    ) {
        self.downstream = downstream
        self.description = name
        self.edges = edges
        self.convertFailure = convertFailure
        self.next = next
    }

    /// The subscriber to attach to the first source.
    var firstSubscriber: Child<First.Failure, FirstSource> { Child(owner: self) }

    var customMirror: Mirror {
        guard case .strict = edges else { return Mirror(self, children: [:]) }
        lock.acquire()
        let children: [Mirror.Child] = [("downstream", downstream as Any), ("demand", demand)]
        lock.release()
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }

    private var isStrict: Bool {
        if case .strict = edges { true } else { false }
    }

    func request(_ demand: Subscribers.Demand) {
        if isStrict { demand.assertNonZero() }
        lock.acquire()
        switch state {
        case .awaitingFirst:
            guard !isStrict else {
                lock.release()
                apiViolation("\(description) received a request before it sent its subscription")
            }
            self.demand += demand
            lock.release()
        case .first(let subscription):
            self.demand += demand
            lock.release()
            subscription.request(demand)
        case .awaitingSecond:
            self.demand += demand
            lock.release()
        case .second(let subscription):
            lock.release()
            subscription.request(demand)
        case .done:
            lock.release()
        }
    }

    func cancel() {
        lock.acquire()
        let subscription: Subscription?
        switch state {
        case .first(let current), .second(let current): subscription = current
        case .awaitingFirst, .awaitingSecond, .done: subscription = nil
        }
        state = .done
        let released = (downstream.take(), next.take())
        lock.release()
        subscription?.cancel()
        withExtendedLifetime(released) {}  // released here, outside the lock
    }

    private func receive(subscription: Subscription, isSecond: Bool) {
        lock.acquire()
        switch (state, isSecond) {
        case (.awaitingFirst, false):
            state = .first(subscription)
            let downstream = self.downstream
            let early = self.demand
            lock.release()
            downstream?.receive(subscription: self)
            if early > 0 { subscription.request(early) }
        case (.awaitingSecond, true):
            state = .second(subscription)
            let demand = self.demand
            lock.release()
            if demand > 0 { subscription.request(demand) }
        default:
            lock.release()
            subscription.cancel()
        }
    }

    private func receive(_ input: Downstream.Input, isSecond: Bool) -> Subscribers.Demand {
        lock.acquire()
        guard let downstream else {
            lock.release()
            return .none
        }
        switch (state, isSecond, edges) {
        case (_, false, .strict):
            apiPrecondition(demand > 0, "\(description) received a value its subscriber did not request")
        case (.first, false, .lenient):
            guard demand > 0 else {
                lock.release()
                return .none
            }
        case (.second, true, _), (_, true, .strict):
            lock.release()
            return downstream.receive(input)
        default:
            lock.release()
            return .none
        }
        demand -= 1
        lock.release()
        let more = downstream.receive(input)
        if more > 0 { lock.withLock { demand += more } }
        return more
    }

    private func receiveFromFirst(completion: Subscribers.Completion<First.Failure>) {
        lock.acquire()
        switch state {
        case .first:
            state = .awaitingSecond
            let next = self.next
            lock.release()
            switch next?(completion) {
            case .switchTo(let second):
                second.subscribe(Child<Second.Failure, SecondSource>(owner: self))
            case .complete(let completion):
                lock.acquire()
                finish(completion)
            case nil:
                break
            }
        case .done:
            lock.release()
        case .awaitingFirst:
            lock.release()
            if isStrict, case .failure = completion {
                apiViolation("\(description) received a failure before its subscription")
            }
        case .awaitingSecond, .second:
            lock.release()
            if isStrict {
                apiViolation("\(description) received a completion from its upstream after the upstream failed")
            }
        }
    }

    private func receiveFromSecond(completion: Subscribers.Completion<Second.Failure>) {
        lock.acquire()
        guard case .second = state else {
            lock.release()
            return
        }
        finish(completion.mapError(convertFailure))
    }

    /// Ends the subscription and sends `completion`; called with the lock held, returns
    /// with it released.
    private func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state = .done
        let (downstream, next) = (self.downstream.take(), self.next.take())
        lock.release()
        withExtendedLifetime(next) {}  // released here, outside the lock
        downstream?.receive(completion: completion)
    }

    /// Subscribes to the first or the second source for the subscription, and describes
    /// itself as it does. The two are of different types, as Apple's are.
    struct Child<Failure: Error, Source: SuccessionSource>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        typealias Input = Downstream.Input

        let owner: SuccessionSubscription
        var isSecond: Bool { Source.isSecond }

        var combineIdentifier: CombineIdentifier { CombineIdentifier(owner) }
        var description: String { owner.description }
        var customMirror: Mirror { owner.customMirror }
        var playgroundDescription: Any { owner.description }

        func receive(subscription: Subscription) {
            owner.receive(subscription: subscription, isSecond: isSecond)
        }

        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            owner.receive(input, isSecond: isSecond)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if isSecond, let completion = completion as? Subscribers.Completion<Second.Failure> {
                owner.receiveFromSecond(completion: completion)
            } else if let completion = completion as? Subscribers.Completion<First.Failure> {
                owner.receiveFromFirst(completion: completion)
            }
        }
    }
}
