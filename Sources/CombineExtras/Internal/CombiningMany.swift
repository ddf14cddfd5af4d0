import Combine
import CombineSynchronization

/// What ``CombiningMany`` publishes.
enum CombiningManyRule {
    /// The n-th values of all upstreams together.
    case zip
    /// The latest values of all upstreams, each time one of them publishes.
    case combineLatest
}

/// The publisher behind `Collection.zip()` and `Collection.combineLatest()`: arrays built from
/// any number of upstreams of one type, through one subscription with a slot per upstream.
struct CombiningMany<Upstream: Publisher>: Publisher {
    typealias Output = [Upstream.Output]
    typealias Failure = Upstream.Failure

    let upstreams: [Upstream]
    let rule: CombiningManyRule

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = CombiningManySubscription<Upstream.Output, S>(
            rule: rule, count: upstreams.count, downstream: subscriber)
        subscriber.receive(subscription: subscription)
        for (index, upstream) in upstreams.enumerated() {
            guard subscription.isActive else { return }
            upstream.subscribe(subscription.side(index))
        }
    }
}

/// The subscription of ``CombiningMany``.
///
/// Every request goes to every upstream (and to upstreams that subscribe later, as the total
/// requested so far). Values go to their slot — a queue for `zip`, the latest value for
/// `combineLatest` — and each complete set becomes an array in the output queue, delivered
/// within the subscriber's demand by one thread at a time (the first to find the queue idle);
/// no lock is held while calling out. A failure is delivered at once, dropping the queue; a
/// finish waits until the queue is delivered. Completion follows the core's `Zip` and
/// `CombineLatest`: `zip` finishes (cancelling the others) once a finished upstream has no
/// value left to pair, `combineLatest` once every upstream has finished.
final class CombiningManySubscription<Value, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    @unchecked Sendable
where Downstream.Input == [Value] {
    private let lock = Lock()
    private let rule: CombiningManyRule
    private let count: Int
    private var downstream: Downstream?
    private var subscriptions: [Subscription?]
    /// `zip`: the values of each upstream not yet zipped.
    private var queues: [ValueQueue<Value>]
    /// `combineLatest`: the latest value of each upstream.
    private var latest: [Value?]
    /// Upstreams with a value ready: a non-empty queue (`zip`) or a latest value.
    private var readyCount = 0
    private var finished: [Bool]
    private var finishedCount = 0
    /// Everything requested so far: what an upstream subscribing now is asked for.
    private var requested = Subscribers.Demand.none
    /// The subscriber's demand not yet met.
    private var demand = Subscribers.Demand.none
    private var outputs = ValueQueue<[Value]>()
    private var completion: Subscribers.Completion<Downstream.Failure>?
    /// A completion was produced or the subscriber cancelled: the upstreams are let go.
    private var terminated = false
    private var delivering = false

    init(rule: CombiningManyRule, count: Int, downstream: Downstream) {
        self.rule = rule
        self.count = count
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: count)
        queues = rule == .zip ? Array(repeating: ValueQueue(), count: count) : []
        latest = rule == .combineLatest ? Array(repeating: nil, count: count) : []
        finished = Array(repeating: false, count: count)
    }

    var description: String { rule == .zip ? "Zip" : "CombineLatest" }

    /// Whether upstreams are still wanted.
    var isActive: Bool { lock.withLock { !terminated } }

    /// The subscriber to attach to the upstream at `index`.
    func side(_ index: Int) -> Side { Side(owner: self, index: index) }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        guard let subscriptions = add(demand) else { return }
        for subscription in subscriptions {
            subscription.request(demand)
        }
        drain()
    }

    func cancel() {
        let (ending, released): (Termination, (Downstream?, ValueQueue<[Value]>)) = lock.withLock {
            defer {
                downstream = nil
                outputs = ValueQueue()
                completion = nil
            }
            return (terminateLocked(), (downstream, outputs))
        }
        ending.cancelUpstreams()
        _ = released  // the subscriber and the arrays are released here, after the lock
    }

    // MARK: Upstream events

    fileprivate func receive(subscription: Subscription, at index: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !terminated, subscriptions[index] == nil, !finished[index] else { return nil }
            subscriptions[index] = subscription
            return requested
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func receive(_ value: Value, at index: Int) {
        let (ending, replaced): (Termination?, Value?) = lock.withLock {
            guard !terminated else { return (nil, nil) }
            switch rule {
            case .zip: return (zipLocked(value, at: index), nil)
            case .combineLatest: return (nil, combineLatestLocked(value, at: index))
            }
        }
        ending?.cancelUpstreams()
        _ = replaced  // the latest value it replaced is released here, after the lock
        drain()
    }

    fileprivate func receive(completion: Subscribers.Completion<Downstream.Failure>, at index: Int) {
        let ending: Termination? = lock.withLock {
            guard !terminated, !finished[index] else { return nil }
            finished[index] = true
            finishedCount += 1
            if case .failure = completion {
                // Apple's `Zip` cancels every upstream on a failure, the failed one too.
                if rule == .combineLatest { subscriptions[index] = nil }
                return finishLocked(completion)
            }
            subscriptions[index] = nil
            // The rules of Apple's `Zip` and `CombineLatest`: zip ends once a finished
            // upstream has no value left to pair; combineLatest only once all have finished,
            // even when one finished without a value and no array can be made any more.
            let canProduceMore =
                switch rule {
                case .zip: !queues[index].isEmpty
                case .combineLatest: finishedCount < count
                }
            return canProduceMore ? nil : finishLocked(.finished)
        }
        ending?.cancelUpstreams()
        drain()
    }

    // MARK: Combining (lock held)

    /// Queues the value; once every queue has one, takes the first of each as an array.
    /// - Returns: The ending, when that emptied a finished upstream's queue.
    private func zipLocked(_ value: Value, at index: Int) -> Termination? {
        if queues[index].isEmpty { readyCount += 1 }
        queues[index].append(value)
        guard readyCount == count else { return nil }
        var output: [Value] = []
        output.reserveCapacity(count)
        var exhausted = false
        for slot in 0..<count {
            output.append(queues[slot].popFirst()!)  // every slot holds a value here
            if queues[slot].isEmpty {
                readyCount -= 1
                exhausted = exhausted || finished[slot]
            }
        }
        outputs.append(output)
        return exhausted ? finishLocked(.finished) : nil
    }

    /// Keeps the value as its upstream's latest; once every upstream has one, queues them all.
    /// - Returns: The value it replaced, to release after the lock.
    private func combineLatestLocked(_ value: Value, at index: Int) -> Value? {
        let replaced = latest[index]
        if replaced == nil { readyCount += 1 }
        latest[index] = value
        if readyCount == count {
            outputs.append(latest.map { $0! })
        }
        return replaced
    }

    /// What ending takes from the subscription, for the caller to cancel and release after
    /// the lock: the upstream subscriptions, and the values no longer wanted (their release
    /// may run code that calls back into this subscription).
    private struct Termination {
        var subscriptions: [Subscription] = []
        var dropped: (queues: [ValueQueue<Value>], latest: [Value?], outputs: ValueQueue<[Value]>)?

        func cancelUpstreams() {
            for subscription in subscriptions {
                subscription.cancel()
            }
        }
    }

    /// Records the completion (a failure drops the undelivered arrays).
    private func finishLocked(_ completion: Subscribers.Completion<Downstream.Failure>) -> Termination {
        self.completion = completion
        var ending = terminateLocked()
        if case .failure = completion {
            ending.dropped?.outputs = outputs
            outputs = ValueQueue()
        }
        return ending
    }

    /// Lets go of the upstreams and their values, once.
    private func terminateLocked() -> Termination {
        guard !terminated else { return Termination() }
        terminated = true
        defer {
            subscriptions = []
            queues = []
            latest = []
        }
        return Termination(
            subscriptions: subscriptions.compactMap { $0 }, dropped: (queues, latest, ValueQueue()))
    }

    // MARK: Delivery

    /// Adds demand of the subscriber (a request, or what it returned from `receive(_:)`).
    /// - Returns: The upstream subscriptions to pass it to; `nil` once cancelled.
    private func add(_ demand: Subscribers.Demand) -> [Subscription]? {
        lock.withLock {
            guard downstream != nil else { return nil }
            self.demand += demand
            guard !terminated else { return [] }
            requested += demand
            return subscriptions.compactMap { $0 }
        }
    }

    private enum Delivery {
        case value(Downstream, [Value])
        case completion(Downstream, Subscribers.Completion<Downstream.Failure>)
    }

    /// Delivers queued arrays while there is demand, then the completion once the queue is
    /// empty. A thread that finds another delivering leaves the work to it (that includes a
    /// call made from inside the subscriber: it is delivered after the subscriber returns).
    private func drain() {
        let idle: Bool = lock.withLock {
            guard !delivering else { return false }
            delivering = true
            return true
        }
        guard idle else { return }
        while let next = nextDelivery() {
            switch next {
            case .value(let downstream, let output):
                let more = downstream.receive(output)
                if more > 0, let subscriptions = add(more) {
                    for subscription in subscriptions {
                        subscription.request(more)
                    }
                }
            case .completion(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }

    /// The next thing to deliver, or `nil` (and no longer delivering) when there is none.
    private func nextDelivery() -> Delivery? {
        lock.withLock {
            if let downstream {
                if demand > 0, let output = outputs.popFirst() {
                    demand -= 1
                    return .value(downstream, output)
                }
                if let completion, outputs.isEmpty {
                    self.downstream = nil
                    self.completion = nil
                    delivering = false
                    return .completion(downstream, completion)
                }
            }
            delivering = false
            return nil
        }
    }

    /// The subscriber attached to one upstream.
    struct Side: Subscriber, CustomStringConvertible {
        typealias Input = Value
        typealias Failure = Downstream.Failure

        let owner: CombiningManySubscription
        let index: Int
        let combineIdentifier = CombineIdentifier()

        var description: String { owner.description }

        func receive(subscription: Subscription) {
            owner.receive(subscription: subscription, at: index)
        }

        func receive(_ input: Value) -> Subscribers.Demand {
            owner.receive(input, at: index)
            return .none
        }

        func receive(completion: Subscribers.Completion<Downstream.Failure>) {
            owner.receive(completion: completion, at: index)
        }
    }
}
