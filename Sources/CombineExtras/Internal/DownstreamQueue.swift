// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

/// Delivers values and one completion to a single subscriber in the order they were handed
/// in, never beyond the demand the subscriber asked for, one call at a time, through the
/// serial-delivery engine (`SerialDelivery`, whose rules ARCHITECTURE.md states once).
///
/// Values handed in without demand wait in a queue. The completion waits behind the queued
/// values, a failure too, unless it is handed in with `droppingQueued` (then the queued values
/// are dropped and it goes out next). Any thread may hand in events or add demand: whichever
/// thread finds nobody delivering takes the role and runs the engine's delivery loop until the
/// queue is empty or the demand used up. A thread that finds another one delivering leaves its
/// event queued for it — after queuing a value it waits for room while more than 1,024 are
/// queued, and it takes the role over once the delivering thread has handed over 1,024 — and
/// an event handed in from inside the subscriber's own callback is delivered at once, nested,
/// as Combine does; a request from inside the callback only adds demand for the running
/// delivery. No lock is held while the subscriber is called. After the completion is
/// delivered, or after ``cancel()``, the subscriber and the queue are released and further
/// events are ignored.
///
/// The methods that deliver return the demand the subscriber added by returning it from
/// `receive(_:)` during that call, for operators that pass demand on to an upstream.
///
/// A part of an operator's subscription, in front of its subscriber (hence the name), on
/// Combine's public API only, so that CombineExtras builds against Apple's framework too; the
/// core's `QueuedSubscription` is the same idea as the subscription itself, which operators
/// subclass.
final class DownstreamQueue<Downstream: Subscriber>: @unchecked Sendable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// Who calls the subscriber now; the queue is its backlog.
    private let delivery = SerialDelivery()
    /// `nil` once the completion has been delivered or the delivery cancelled.
    private var downstream: Downstream?
    private var queue = RingQueue<Input>()
    private var completion: Subscribers.Completion<Failure>?
    private var demand = Subscribers.Demand.none

    init(_ downstream: Downstream) {
        self.downstream = downstream
    }

    /// The most events the queue has held while another thread was delivering (0 if never
    /// contended): for the stress tests.
    var peakBacklog: Int {
        lock.withLock { delivery.peakBacklogLocked }
    }

    /// Whether events are still accepted: no completion handed in, not cancelled.
    var isOpen: Bool {
        lock.withLock { downstream != nil && completion == nil }
    }

    /// Queues `value` behind the events already queued, without delivering it.
    /// - Returns: Whether it was accepted (not after a completion or a cancel).
    @discardableResult
    func enqueue(_ value: Input) -> Bool {
        lock.withLock {
            guard downstream != nil, completion == nil else { return false }
            delivery.appendLocked(value, to: &queue)
            return true
        }
    }

    /// Queues `value` only if the subscriber has demand left for it beyond the values queued
    /// already, and this thread (`me`) is not inside the subscriber's own callback: the rule of
    /// Apple's `combineLatest`, which drops a combination nobody asked for yet.
    /// - Returns: Whether it was queued.
    @discardableResult
    func enqueueIfWanted(_ value: Input, me: UInt) -> Bool {
        lock.withLock {
            guard downstream != nil, completion == nil, !delivery.isDelivering(me: me), demand - queue.count > 0
            else { return false }
            delivery.appendLocked(value, to: &queue)
            return true
        }
    }

    /// Queues the completion behind the values already queued (or, `droppingQueued`, drops
    /// them), without delivering it.
    /// - Returns: Whether it was accepted (not after another completion or a cancel).
    @discardableResult
    func enqueue(completion: Subscribers.Completion<Failure>, droppingQueued: Bool = false) -> Bool {
        lock.acquire()
        guard downstream != nil, self.completion == nil else {
            lock.release()
            return false
        }
        self.completion = completion
        var dropped = RingQueue<Input>()
        if droppingQueued { swap(&dropped, &queue) }
        lock.release()
        withExtendedLifetime(dropped) {}  // released here, outside the lock
        return true
    }

    /// Queues `value` and delivers what the demand allows.
    @discardableResult
    func send(_ value: Input) -> Subscribers.Demand {
        guard enqueue(value) else { return .none }
        return drain(afterQueuing: true)
    }

    /// Queues the completion (dropping the queued values, `droppingQueued`) and delivers what
    /// the demand allows.
    @discardableResult
    func send(completion: Subscribers.Completion<Failure>, droppingQueued: Bool = false) -> Subscribers.Demand {
        guard enqueue(completion: completion, droppingQueued: droppingQueued) else { return .none }
        return drain()
    }

    /// Adds to the subscriber's demand and delivers what it allows; from inside the
    /// subscriber's own callback, only adds it (the running delivery goes on with it).
    @discardableResult
    func request(_ additional: Subscribers.Demand) -> Subscribers.Demand {
        let me = currentThreadID()
        let (open, nested): (Bool, Bool) = lock.withLock {
            guard downstream != nil else { return (false, false) }
            demand += additional
            return (true, delivery.isDelivering(me: me))
        }
        return open && !nested ? drain() : .none
    }

    /// Releases the subscriber and drops the queued events; nothing is delivered afterwards.
    /// - Returns: Whether this call ended the delivery (it was neither completed nor cancelled).
    @discardableResult
    func cancel() -> Bool {
        lock.acquire()
        let downstream = self.downstream.take()
        let dropped = queue
        queue = RingQueue()
        completion = nil
        lock.release()
        withExtendedLifetime(dropped) {}  // the subscriber and the values are released here, outside the lock
        return downstream != nil
    }

    /// Delivers queued events while the demand allows, unless another thread is delivering
    /// (which then delivers them).
    /// Pass `afterQueuing` when this thread has just queued a value (``enqueue(_:)``): it then
    /// waits for room, or takes the role over, as a sender does.
    @discardableResult
    func drain(afterQueuing: Bool = false) -> Subscribers.Demand {
        var added = Subscribers.Demand.none
        lock.acquire()
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: afterQueuing, queued: { queue.count },
            next: { nextStepLocked() },
            deliver: { step in
                switch step {
                case .value(let downstream, let value):
                    let more = downstream.receive(value)
                    guard more > 0 else { return }
                    added += more
                    lock.withLock { if self.downstream != nil { demand += more } }
                case .completion(let downstream, let completion):
                    downstream.receive(completion: completion)
                }
            })
        return added
    }

    private enum Step {
        case value(Downstream, Input)
        case completion(Downstream, Subscribers.Completion<Failure>)
    }

    /// Under the lock, for the delivery loop: the next value the demand allows, else the
    /// completion once the queue is empty.
    private func nextStepLocked() -> DeliveryStep<Step> {
        guard let downstream else { return .idle }
        if demand > 0, let value = delivery.takeLocked(from: &queue) {
            demand -= 1
            return .deliver(.value(downstream, value))
        }
        guard queue.isEmpty, let completion else { return .idle }
        self.downstream = nil
        self.completion = nil
        return .last(.completion(downstream, completion))
    }
}
