// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The downstream side of an operator that feeds one subscriber from several sources —
/// `merge`, `combineLatest`, `zip`, `flatMap`, `switchToLatest` — or from an upstream and a
/// scheduler's timer (`TimedSubscription`: `debounce`, `throttle`, `timeout`, `collect` by
/// time): a queue of outputs delivered within the subscriber's demand, one call at a time.
/// It is the subscription the subscriber holds; operators subclass it. (CombineExtras'
/// `DownstreamQueue` is the same idea as a part an operator's own subscription holds, written on
/// Combine's public API so that it also builds against Apple's framework.)
///
/// Subclasses produce outputs under ``lock`` with ``enqueueLocked(_:)`` / ``finishLocked(_:)``
/// and then deliver through the serial-delivery engine (`SerialDelivery`, whose backlog is this
/// queue): ``drain(afterQueuing:)`` after releasing the lock, ``enqueueAndDrain(_:)`` to queue
/// and claim in one critical section, the engine's `serveLocked` with the lock still held, or
/// ``deliverOwnLocked(_:me:take:enqueue:)`` to hand an output straight to the subscriber when
/// nothing is queued ahead of it (flatMap, switchToLatest, zip).
/// The engine's delivery loop asks ``nextDeliveryLocked()`` for each step. No lock is held
/// while calling the subscriber; a thread that finds another delivering leaves its output in
/// the queue for that thread, waits for room while the queue holds more than the engine's
/// limit (1,024), and takes the delivering role over once the delivering thread has used its
/// budget; an output produced from inside the subscriber's own callback on the same thread is
/// delivered at once, nested. Outputs waiting for demand stay in the same queue: those are
/// bounded by the demand the operator asked of its sources, not by the engine.
///
/// A failure overtakes the queued outputs: it is the next thing delivered (after the call
/// under way, if another thread is delivering), needing no demand, and the outputs queued
/// before it are dropped once it is delivered. `.finished` waits until the queue is empty.
///
/// Nothing that may hold user objects (the subscriber, queued outputs, the completion) is
/// released with the lock held: its deinit could call back into this subscription (a
/// subscriber cancelling from its `deinit`) and take the lock again. Dropped state is carried
/// out of the critical section and let go after it.
@usableFromInline
class QueuedSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    @unchecked Sendable
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    // The stored properties are `final` so that specialised code reads them directly rather
    // than through the class's (unspecialised, metadata-looking-up) accessors.
    @usableFromInline final let lock = Lock()
    @usableFromInline @exclusivity(unchecked) final var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) final var demand = Subscribers.Demand.none
    /// The delivering thread; ``queue`` is its backlog.
    @usableFromInline final let delivery = SerialDelivery()
    @usableFromInline @exclusivity(unchecked) final var queue = RingQueue<Output>()
    @usableFromInline @exclusivity(unchecked) final var completion: Subscribers.Completion<Failure>?
    /// A completion was produced or the subscription was cancelled: nothing more is queued.
    @usableFromInline @exclusivity(unchecked) final var isTerminated = false
    /// `false` for `zip`: as Apple's, an output goes out when it is made, whatever the demand
    /// (which is then counted down to zero, not below). Only an upstream that sends beyond
    /// the demand asked of it can make one beyond the subscriber's demand.
    @usableFromInline @exclusivity(unchecked) final var gatesOnDemand = true
    /// The subscriber is in `receive(subscription:)`, on the thread holding the delivering role
    /// (``start()``): a request it makes there delivers nested, at once.
    @usableFromInline @exclusivity(unchecked) final var handingOff = false
    @usableFromInline let description: String

    @usableFromInline
    init(downstream: Downstream, name: String) {
        self.downstream = downstream
        self.description = name
    }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["demand": lock.withLock { demand }]) }

    // MARK: For subclasses (call with `lock` held)

    /// Queues an output for delivery. Call with `lock` held; call ``drain(afterQueuing:)`` after.
    @inlinable
    final func enqueueLocked(_ output: Output) {
        guard !isTerminated else { return }
        delivery.appendLocked(output, to: &queue)
    }

    /// The subscriber's outstanding demand minus the outputs waiting in the queue.
    @usableFromInline
    final var unqueuedDemandLocked: Subscribers.Demand {
        demand - queue.count
    }

    /// Whether this thread is calling the subscriber now (a call from inside its callback).
    @inlinable
    final func isDeliveringLocked(me: UInt) -> Bool {
        delivery.isDelivering(me: me)
    }

    /// Records the completion. Call with `lock` held; call ``drain(afterQueuing:)`` after: it delivers a
    /// failure ahead of the queued outputs, then drops them (outside the lock).
    /// - Returns: Whether this was the first completion (later ones are ignored).
    @discardableResult
    @inlinable
    final func finishLocked(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard !isTerminated else { return false }
        isTerminated = true
        self.completion = completion
        return true
    }

    // MARK: For subclasses to override

    /// The subscriber requested `demand` more (already added to the outstanding demand).
    /// Called without the lock held.
    @usableFromInline
    func didRequest(_ demand: Subscribers.Demand) {}

    /// A queued output was delivered and the subscriber answered with `additionalDemand`
    /// (already added to the outstanding demand). Called without the lock held.
    ///
    /// Demand returned from `receive(_:)` is demand like any requested: by default it goes
    /// where a request goes (``didRequest(_:)``), so that a subscriber pacing itself by its
    /// return value keeps the sources flowing.
    @usableFromInline
    func didDeliver(_ additionalDemand: Subscribers.Demand) {
        if additionalDemand > 0 { didRequest(additionalDemand) }
    }

    /// Cancel every upstream subscription. Called without the lock held, once, on cancel or
    /// after a failure was produced by a source. Every subclass overrides it (the base traps:
    /// one that left its upstreams running after a cancel would be a bug).
    @usableFromInline
    func cancelUpstreams() {
        apiViolation("\(type(of: self)) must override cancelUpstreams()")
    }

    // MARK: Delivery

    /// Delivers queued outputs while there is demand, then the completion once due; or, when
    /// another thread is delivering, leaves them to it (see `SerialDelivery`: after
    /// queuing, `afterQueuing`, this thread may wait for room or take the role over).
    @inlinable
    final func drain(afterQueuing: Bool = true) {
        lock.acquire()
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: afterQueuing, queued: { queue.count },
            next: { nextDeliveryLocked() }, deliver: { deliver($0) })
    }

    /// Queues `output` and delivers what the demand allows (``enqueueLocked(_:)`` then
    /// ``drain(afterQueuing:)``, taking the lock once for both).
    @inlinable
    final func enqueueAndDrain(_ output: Output) {
        lock.acquire()
        enqueueLocked(output)
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: true, queued: { queue.count },
            next: { nextDeliveryLocked() }, deliver: { deliver($0) })
    }

    /// Under the lock (held on entry, released on return): delivers `output` from this thread
    /// at once when it can go straight to the subscriber — nothing queued ahead of it, and no
    /// other thread delivering (the engine's own-first front) — and `take` (under the lock)
    /// gives the subscriber (taking what the call uses, a unit of demand); `nil` from `take`,
    /// or another thread delivering, queues it instead (`enqueue`) for whoever delivers.
    /// Delivered here, the subscriber's answer is added to the outstanding demand and returned
    /// (not yet passed to ``didDeliver(_:)``), after what other threads queued meanwhile was
    /// delivered; `nil` when it was queued.
    ///
    /// Always inlined: as a call of its own it cost flatMap a retain and a release per value,
    /// and the contended flatMap row half as much time again (`Benchmarks/atomics.py`, RESULTS.md).
    @inlinable
    @inline(__always)
    final func deliverOwnLocked(
        _ output: Output, me: UInt, take: () -> Downstream?, enqueue: () -> Void
    ) -> Subscribers.Demand? {
        delivery.deliverOwnLocked(
            me: me, lock: lock, mayWait: true, takeOwn: { queue.isEmpty ? take() : nil }, enqueueOwn: enqueue,
            queued: { queue.count },
            deliverOwn: { downstream in
                let more = downstream.receive(output)
                if more > 0 { lock.withLock { if self.downstream != nil { demand += more } } }
                return more
            }, next: { nextDeliveryLocked() }, deliver: { deliver($0) })
    }

    /// Under the lock: the subscriber, if an output can go to it now (not terminated, with
    /// demand for it), taking the unit of demand it uses.
    @inlinable
    final func takeDemandLocked() -> Downstream? {
        guard let downstream, !isTerminated, demand > 0 else { return nil }
        demand -= 1
        return downstream
    }

    @usableFromInline
    enum Delivery {
        case value(Downstream, Output)
        case completion(Downstream, Subscribers.Completion<Failure>)
    }

    /// Under the lock, for the delivery loop: the next output the demand allows, else the
    /// completion once due (a failure overtakes the queued outputs).
    @inlinable
    final func nextDeliveryLocked() -> DeliveryStep<Delivery> {
        guard let downstream else { return .idle }
        // A failure overtakes the queued outputs, which ``drain(afterQueuing:)`` drops once it is delivered
        // (checked only once terminated: the steady state reads one flag).
        var overtaking = false
        if isTerminated, case .failure? = completion { overtaking = true }
        if !overtaking, demand > 0 || !gatesOnDemand, let value = delivery.takeLocked(from: &queue) {
            if demand > 0 { demand -= 1 }
            return .deliver(.value(downstream, value))
        }
        if let completion, overtaking || queue.isEmpty {
            self.downstream = nil
            self.completion = nil
            return .last(.completion(downstream, completion))
        }
        return .idle
    }

    /// For the delivery loop, after the lock: calls the subscriber.
    @inlinable
    final func deliver(_ item: Delivery) {
        switch item {
        case .value(let downstream, let value):
            let more = downstream.receive(value)
            if more > 0 { lock.withLock { if self.downstream != nil { demand += more } } }
            didDeliver(more)
        case .completion(let downstream, let completion):
            downstream.receive(completion: completion)
            if case .failure = completion { dropQueue() }
        }
    }

    /// Empties the queue, releasing the outputs after the lock: their deinits may call back.
    @inlinable
    final func dropQueue() {
        var dropped = RingQueue<Output>()
        lock.withLock { swap(&dropped, &queue) }
        withExtendedLifetime(dropped) {}
    }

    // MARK: Subscription

    /// Adds to the outstanding demand and delivers what it allows. A request made from inside
    /// the subscriber's own callback (the thread delivering now) only adds demand: the running
    /// delivery loop delivers what it allows when the callback returns, so a subscriber that
    /// requests one more value from each `receive(_:)` keeps a flat stack.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let me = currentThreadID()
        var nested = false
        let active: Bool = lock.withLock {
            guard downstream != nil else { return false }
            self.demand += demand
            nested = isDeliveringLocked(me: me) && !handingOff
            return true
        }
        guard active else { return }
        didRequest(demand)
        if !nested { drain(afterQueuing: false) }
    }

    // Reached through `any Subscription`, so it runs unspecialised: it takes the state out of
    // the lock one value at a time (see ARCHITECTURE.md).
    @usableFromInline
    func cancel() {
        lock.acquire()
        let wasActive = downstream != nil && !isTerminated
        let downstream = self.downstream.take()
        isTerminated = true
        // A copy and an assignment: `swap` would look up metadata.
        let queue = self.queue
        self.queue = RingQueue()
        let completion = self.completion.take()
        lock.release()
        if wasActive { cancelUpstreams() }
        // Released here, outside the lock: the subscriber's deinit may cancel again.
        withExtendedLifetime(downstream) {}
        withExtendedLifetime(queue) {}
        withExtendedLifetime(completion) {}
    }

    /// Hands this subscription to the subscriber, as its delivering thread: an output another
    /// thread produces meanwhile (a timer firing, a source on another thread) is queued, and
    /// delivered once `receive(subscription:)` has returned, so that no call overlaps it. A
    /// request the subscriber makes from inside `receive(subscription:)` delivers at once,
    /// nested, what its demand allows, as before the subscriber returns on Apple's.
    @inlinable
    final func start() {
        _ = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: true,
            beginLocked: { holding -> Downstream? in
                guard let downstream else { return nil }
                handingOff = holding
                return downstream
            },
            call: { $0.receive(subscription: self) }, endLocked: { handingOff = false },
            next: { nextDeliveryLocked() }, deliver: { deliver($0) })
    }
}

extension QueuedSubscription: SerialDeliveryOwner {
    var peakBacklog: Int { lock.withLock { delivery.peakBacklogLocked } }
}
