// SPDX-License-Identifier: Apache-2.0
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
/// `combineLatest` — and each complete set becomes an array in the output queue (for
/// `combineLatest` only while the subscriber has demand for it, as the core's), delivered
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
    /// The output queue, the subscriber's demand and the completion, delivered through the
    /// serial-delivery engine.
    private let delivery: DownstreamQueue<Downstream>
    private var subscriptions: [Subscription?]
    /// `zip`: the values of each upstream not yet zipped.
    private var queues: [RingQueue<Value>]
    /// `combineLatest`: the latest value of each upstream.
    private var latest: [Value?]
    /// Upstreams with a value ready: a non-empty queue (`zip`) or a latest value.
    private var readyCount = 0
    private var finished: [Bool]
    private var finishedCount = 0
    /// Everything requested so far: what an upstream subscribing now is asked for.
    private var requested = Subscribers.Demand.none
    /// A completion was produced or the subscriber cancelled: the upstreams are let go.
    private var terminated = false

    init(rule: CombiningManyRule, count: Int, downstream: Downstream) {
        self.rule = rule
        self.count = count
        delivery = DownstreamQueue(downstream)
        subscriptions = Array(repeating: nil, count: count)
        queues = rule == .zip ? Array(repeating: RingQueue(), count: count) : []
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
        requestUpstreams(demand)
        requestUpstreams(delivery.request(demand))
    }

    func cancel() {
        let ending = lock.withLock { terminateLocked() }
        delivery.cancel()
        ending.cancelUpstreams()
        withExtendedLifetime(ending) {}  // the values are released here, after the lock
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
        withExtendedLifetime(replaced) {}  // the latest value it replaced is released here, after the lock
        if let ending { end(ending) }
        requestUpstreams(delivery.drain(afterQueuing: true))
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
        if let ending { end(ending) }
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
        delivery.enqueue(output)
        return exhausted ? finishLocked(.finished) : nil
    }

    /// Keeps the value as its upstream's latest; once every upstream has one, queues them all,
    /// if the subscriber has demand for them and is not inside its own `receive(_:)` on this
    /// thread (as the core's `combineLatest` and Apple's: otherwise no combination is made).
    /// - Returns: The value it replaced, to release after the lock.
    private func combineLatestLocked(_ value: Value, at index: Int) -> Value? {
        let replaced = latest[index]
        if replaced == nil { readyCount += 1 }
        latest[index] = value
        if readyCount == count {
            delivery.enqueueIfWanted(latest.map { $0! }, me: currentThreadID())
        }
        return replaced
    }

    /// What ending takes from the subscription, for the caller to cancel, deliver and release
    /// after the lock: the upstream subscriptions, the completion, and the values no longer
    /// wanted (their release may run code that calls back into this subscription).
    private struct Termination {
        var subscriptions: [Subscription] = []
        var completion: Subscribers.Completion<Downstream.Failure>?
        var dropped: (queues: [RingQueue<Value>], latest: [Value?])?

        func cancelUpstreams() {
            for subscription in subscriptions {
                subscription.cancel()
            }
        }
    }

    /// Records the completion, to deliver after the lock.
    private func finishLocked(_ completion: Subscribers.Completion<Downstream.Failure>) -> Termination {
        var ending = terminateLocked()
        ending.completion = completion
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
        return Termination(subscriptions: subscriptions.compactMap { $0 }, dropped: (queues, latest))
    }

    /// After the lock: cancels the upstreams, then hands the completion to the delivery — a
    /// failure at once, dropping the undelivered arrays; a finish behind them.
    private func end(_ ending: Termination) {
        ending.cancelUpstreams()
        if let completion = ending.completion {
            if case .failure = completion {
                delivery.send(completion: completion, droppingQueued: true)
            } else {
                delivery.send(completion: completion)
            }
        }
    }

    // MARK: Delivery

    /// Passes demand of the subscriber (a request, or what it returned from `receive(_:)`) to
    /// every upstream, and keeps it for upstreams subscribing later; nothing once ended.
    private func requestUpstreams(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.acquire()
        var live: [Subscription] = []
        if !terminated {
            requested += demand
            live = subscriptions.compactMap { $0 }
        }
        lock.release()
        for subscription in live {
            subscription.request(demand)
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
