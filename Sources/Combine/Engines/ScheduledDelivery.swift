// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The one implementation behind `receive(on:)` and `delay`: every value and the completion
/// travel to the subscriber through a scheduling function; the subscription, requests and
/// cancellation go straight upstream.
///
/// - The subscription is handed down at once, on the thread that subscribed.
/// - Each value and the completion is queued, in upstream order, and one scheduler action
///   is scheduled for it; each action delivers the oldest queued event, and `.none` is
///   returned upstream. When a value has been delivered, the demand the subscriber returns
///   is requested from upstream.
/// - Calls into the subscriber never overlap and keep upstream's order, whatever the
///   scheduler: an action that runs while another thread is delivering (a concurrent queue,
///   or `delay`'s timers firing together) leaves its event to that thread, which delivers it
///   after its current call returns. An action that runs from inside the subscriber's own
///   callback (a synchronous scheduler) delivers at once, nested, as Combine does. A `delay`
///   timer that fires early relative to an earlier one therefore delivers the earlier value,
///   whose time has come too. The role of delivering thread is the serial-delivery engine's
///   (`SerialDelivery`), so its budget holds here too: after handing over 1,024 events for
///   other actions, the delivering thread leaves the rest to the next action to run.
/// - After `cancel()`, actions already scheduled deliver nothing.
/// - Nothing is called while the lock is held.
///
/// Apple's `receive(on:)` runs each event as an independent action, so on a concurrent queue
/// its calls can overlap, arrive out of order, and a value can be lost behind the completion.
/// Every outcome of this engine (in order, one at a time, on the scheduler) is one of the
/// outcomes Apple's can produce on such a queue, and the only one it produces on a serial one.
///
/// The per-value path is `@inlinable`; the scheduled action captures only this object (no
/// per-value closure context).
///
/// `Reflection` says how the subscription shows itself, as Apple's does per operator:
/// ``ReflectedAsReceiveOn`` (description "ReceiveOn", an empty mirror) or ``Unreflected``
/// (delay: no description, mirror or playground description at all).
@usableFromInline
final class ScheduledDelivery<Downstream: Subscriber, Reflection>: Subscriber, Subscription, @unchecked Sendable {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    enum State {
        case awaitingSubscription
        case subscribed(Subscription)
        /// The completion is on its way; queued values may still ask for more.
        case completing(Subscription)
        case done
    }

    @usableFromInline let lock = Lock()
    /// Who calls the subscriber now (see `SerialDelivery`).
    @usableFromInline let delivery = SerialDelivery()
    /// Actions that ran while another thread was delivering: that thread delivers their events
    /// (the engine's backlog for this owner is a count: the values wait in ``values``).
    @usableFromInline @exclusivity(unchecked) var owed = 0
    /// The subscriber is in `receive(subscription:)`, on the thread holding the delivering role.
    @usableFromInline @exclusivity(unchecked) var handingOff = false
    @usableFromInline @exclusivity(unchecked) var state = State.awaitingSubscription
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    /// Values whose actions are scheduled, oldest first.
    @usableFromInline @exclusivity(unchecked) var values = RingQueue<Input>()
    /// The completion, behind the queued values.
    @usableFromInline @exclusivity(unchecked) var completion: Subscribers.Completion<Failure>?
    @usableFromInline let scheduleAction: (@escaping () -> Void) -> Void

    /// - Parameters:
    ///   - downstream: The subscriber the events go to.
    ///   - reflection: How the subscription shows itself (``ReflectedAsReceiveOn`` or ``Unreflected``).
    ///   - schedule: Hands an action to the scheduler (at once, or after a delay).
    @inlinable
    init(downstream: Downstream, reflection: Reflection.Type, schedule: @escaping (@escaping () -> Void) -> Void) {
        self.downstream = downstream
        self.scheduleAction = schedule
    }

    @inlinable
    var upstreamLocked: Subscription? {
        switch state {
        case .subscribed(let subscription), .completing(let subscription): subscription
        case .awaitingSubscription, .done: nil
        }
    }

    // MARK: From upstream

    /// Hands the subscription down holding the delivering role, so that no scheduled action
    /// calls the subscriber before `receive(subscription:)` returns: an action that runs
    /// meanwhile on another thread waits for it (as one waits for Apple's lock, held during
    /// that call), then delivers, on the scheduler. An action run inside the call on the same
    /// thread (a synchronous scheduler) delivers nested, as before.
    @usableFromInline
    func receive(subscription: Subscription) {
        let handed = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: true,
            beginLocked: { holding -> Downstream? in
                guard case .awaitingSubscription = state else { return nil }
                state = .subscribed(subscription)
                handingOff = holding
                return downstream
            },
            call: { $0.receive(subscription: self) }, endLocked: { handingOff = false },
            // Nothing is delivered here: the events belong on the scheduler. The action waiting
            // to take over, if one came, gets the role and delivers what is owed.
            next: { DeliveryStep<Queued>.idle }, deliver: { _ in })
        if !handed { subscription.cancel() }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        let live: Bool = lock.withLock {
            guard case .subscribed = state else { return false }
            values.append(input)
            return true
        }
        if live { scheduleAction { self.deliverNext() } }
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let live: Bool = lock.withLock {
            guard case .subscribed(let subscription) = state else { return false }
            state = .completing(subscription)
            self.completion = completion
            return true
        }
        if live { scheduleAction { self.deliverNext() } }
    }

    // MARK: On the scheduler

    /// One scheduled action: delivers the oldest queued event, or leaves it to the thread
    /// delivering now (``owed``), through the serial-delivery engine; the outermost delivering
    /// thread then delivers what such actions left it, within the engine's budget (after which
    /// the next action to arrive takes the role over and delivers the rest).
    @inlinable
    func deliverNext() {
        let me = currentThreadID()
        lock.acquire()
        owed += 1
        // An action run from inside the subscriber's callback (a synchronous scheduler)
        // delivers only its own event, nested; the outermost delivering thread delivers what
        // is owed.
        let nested = delivery.isDelivering(me: me)
        var ownLeft = true
        delivery.serveLocked(
            me: me, lock: lock, afterQueuing: true, mayWait: false, takeOverNow: handingOff, queued: { owed },
            next: { nextLocked(nested: nested, ownLeft: &ownLeft) },
            deliver: { item in
                switch item {
                case .value(let downstream, let value):
                    let more = downstream.receive(value)
                    if more > 0, let upstream = lock.withLock({ upstreamLocked }) { upstream.request(more) }
                case .completion(let downstream, let completion, let upstream):
                    withExtendedLifetime(upstream) {}
                    downstream.receive(completion: completion)
                }
            })
    }

    @usableFromInline
    enum Queued {
        case value(Downstream, Input)
        /// With the upstream, let go after the lock.
        case completion(Downstream, Subscribers.Completion<Failure>, Subscription?)
    }

    /// Under the lock, for the delivery loop: the event of the next action owed (`nested`:
    /// only this thread's own, while `ownLeft`).
    @inlinable
    func nextLocked(nested: Bool, ownLeft: inout Bool) -> DeliveryStep<Queued> {
        while let downstream {
            guard owed > 0, ownLeft else { return .idle }
            if nested { ownLeft = false }
            owed -= 1
            if let value = delivery.takeLocked(from: &values) { return .deliver(.value(downstream, value)) }
            if let completion = completion.take() {
                let upstream = upstreamLocked
                state = .done
                self.downstream = nil
                owed = 0
                return .last(.completion(downstream, completion, upstream))
            }
        }
        return .idle
    }

    // MARK: From downstream

    /// Passes any demand upstream, `.none` included, as Apple's.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstreamLocked }?.request(demand)
    }

    /// A cancel before the upstream's subscription is ignored, as Apple's: only the upstream
    /// side holds this subscription then, and the subscription that comes later is taken.
    @usableFromInline
    func cancel() {
        lock.acquire()
        if case .awaitingSubscription = state {
            lock.release()
            return
        }
        let state = self.state
        self.state = .done
        let downstream = self.downstream.take()
        let values = self.values  // a copy and an assignment: `swap` would look up metadata
        self.values = RingQueue()
        let completion = self.completion.take()
        lock.release()
        if case .subscribed(let upstream) = state { upstream.cancel() }
        // Released here, outside the lock.
        withExtendedLifetime(downstream) {}
        withExtendedLifetime(values) {}
        withExtendedLifetime(completion) {}
    }
}

/// ``ScheduledDelivery`` shown as Apple's `receive(on:)` subscription.
@usableFromInline
enum ReflectedAsReceiveOn {}

/// ``ScheduledDelivery`` without description or mirror, as Apple's `delay` subscription.
@usableFromInline
enum Unreflected {}

extension ScheduledDelivery: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Reflection == ReflectedAsReceiveOn {
    @usableFromInline
    var description: String { "ReceiveOn" }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    var playgroundDescription: Any { description }
}
