/// One upstream's place in `zip` or `combineLatest`: its subscription and its values
/// (a queue for `zip`, the latest value for `combineLatest`). Guarded by the owning
/// ``CombiningSubscription``'s lock.
final class CombiningSlot<Input>: @unchecked Sendable {
    var values: [Input] = []
    var head = 0
    var subscription: Subscription?
    var finished = false

    var isEmpty: Bool { head == values.count }

    func append(_ value: Input, keepingOnlyLatest: Bool) {
        if keepingOnlyLatest {
            values = [value]
            head = 0
        } else {
            values.append(value)
        }
    }

    /// The oldest value; removed unless `keep` (`combineLatest` keeps its latest).
    func take(keep: Bool) -> Input {
        let value = values[head]
        if !keep {
            head += 1
            if head == values.count {
                values.removeAll(keepingCapacity: true)
                head = 0
            }
        }
        return value
    }
}

/// The one implementation behind `Zip`, `Zip3`, `Zip4`, `CombineLatest`, `CombineLatest3`
/// and `CombineLatest4`: a variadic-generic core over the upstreams' output types.
///
/// - `zip` pairs the n-th values of every upstream; it finishes when an upstream has
///   finished and none of its values wait to be paired.
/// - `combineLatest` publishes the latest value of every upstream each time one of them
///   publishes, once all have published; it finishes when all have finished.
///
/// The subscriber's requests go to every upstream; any failure cancels the others.
final class CombiningSubscription<each Input, Downstream: Subscriber>: FanIn<Downstream>, @unchecked Sendable
where Downstream.Input == (repeat each Input) {
    private let mode: CombiningMode
    private let slots: (repeat CombiningSlot<each Input>)
    private var requested = Subscribers.Demand.none

    init(mode: CombiningMode, downstream: Downstream, name: String) {
        self.mode = mode
        self.slots = (repeat CombiningSlot<each Input>())
        super.init(downstream: downstream, name: name)
    }

    /// Hands the subscription downstream, then subscribes to each upstream in order.
    func subscribe(to publishers: repeat AnyPublisher<each Input, Downstream.Failure>) {
        start()
        repeat (each publishers).subscribe(Child(owner: self, slot: each slots))
    }

    private var allSlots: [any AnyCombiningSlot] {
        var all: [any AnyCombiningSlot] = []
        for slot in repeat each slots { all.append(slot) }
        return all
    }

    override func didRequest(_ demand: Subscribers.Demand) {
        let subscriptions: [Subscription] = lock.withLock {
            requested += demand
            return allSlots.compactMap(\.subscription)
        }
        for subscription in subscriptions {
            subscription.request(demand)
        }
    }

    override func cancelUpstreams() {
        let subscriptions: [Subscription] = lock.withLock {
            allSlots.compactMap { slot in
                defer { slot.subscription = nil }
                return slot.subscription
            }
        }
        for subscription in subscriptions {
            subscription.cancel()
        }
    }

    fileprivate func receive<Value>(subscription: Subscription, for slot: CombiningSlot<Value>) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !isTerminated, slot.subscription == nil else { return nil }
            slot.subscription = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func receive<Value>(_ value: Value, for slot: CombiningSlot<Value>) {
        let cancel: Bool = lock.withLock {
            guard !isTerminated else { return false }
            slot.append(value, keepingOnlyLatest: mode == .combineLatest)
            guard allSlots.allSatisfy({ !$0.isEmpty }) else { return false }
            let keep = mode == .combineLatest
            enqueueLocked((repeat (each slots).take(keep: keep)))
            return mode == .zip && finishZipIfExhaustedLocked()
        }
        if cancel { cancelUpstreams() }
        drain()
    }

    fileprivate func receive<Value>(
        completion: Subscribers.Completion<Downstream.Failure>, for slot: CombiningSlot<Value>
    ) {
        let cancel: Bool = lock.withLock {
            guard !isTerminated else { return false }
            slot.finished = true
            slot.subscription = nil
            if case .failure = completion { return finishLocked(completion) }
            switch mode {
            case .zip:
                return finishZipIfExhaustedLocked()
            case .combineLatest:
                if allSlots.allSatisfy(\.finished) { finishLocked(.finished) }
                return false
            }
        }
        if cancel { cancelUpstreams() }
        drain()
    }

    /// `zip` can pair no more once a finished upstream has no values left.
    private func finishZipIfExhaustedLocked() -> Bool {
        guard allSlots.contains(where: { $0.finished && $0.isEmpty }) else { return false }
        return finishLocked(.finished)
    }

    private struct Child<Value>: Subscriber, CustomStringConvertible {
        typealias Input = Value
        typealias Failure = Downstream.Failure

        let owner: CombiningSubscription
        let slot: CombiningSlot<Value>
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        func receive(subscription: Subscription) {
            owner.receive(subscription: subscription, for: slot)
        }

        func receive(_ input: Value) -> Subscribers.Demand {
            owner.receive(input, for: slot)
            return .none
        }

        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            owner.receive(completion: completion, for: slot)
        }
    }
}

/// Whether a ``CombiningSubscription`` zips or combines the latest values.
enum CombiningMode {
    case zip
    case combineLatest
}

/// What `CombiningSubscription` needs of a slot whatever its value type.
protocol AnyCombiningSlot: AnyObject {
    var isEmpty: Bool { get }
    var finished: Bool { get }
    var subscription: Subscription? { get set }
}

extension CombiningSlot: AnyCombiningSlot {}
