// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TestSupport

@testable import CombineSynchronization

// The smallest owner of each of the engine's fronts: values sent from any thread are "delivered"
// by recording them (`RecordedCalls`), one call at a time. Used by the stress tests
// (SerialDeliveryTests) and the interleaving explorer's scenarios
// (SerialDeliveryExplorationTests).

/// A fake owner, as the scenarios drive it.
protocol FakeOwner: AnyObject, Sendable {
    var calls: RecordedCalls { get }
    func send(_ value: Int)
    /// What is wrong once every thread is done (the role kept, events stranded), or nothing.
    func idleViolations() -> [String]
    /// The most events the backlog held at once.
    var peak: Int { get }
}

/// The own-first fronts of an owner whose role is taken without the lock (as a subject's
/// conduit): a thread that finds nobody delivering takes the role with a compare-and-swap and
/// calls the subscriber with its own value; otherwise the value is queued for the delivering
/// thread (after waiting for room), or delivered nested from the sender's own frame.
final class OwnFirstOwner: FakeOwner, @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var backlog = RingQueue<Int>()
    let calls = RecordedCalls()

    func send(_ value: Int) {
        let me = currentThreadID()
        let idle = delivery.offerIfIdle(
            me: me, lock: lock, own: { calls.call(value) }, next: { nextLocked() }, deliver: { calls.call($0) })
        if idle { return }
        lock.acquire()
        let nested = delivery.offerLocked(
            me: me, lock: lock, admitLocked: { () -> Int? in value }, settleLocked: { _ in },
            queued: { backlog.count }, enqueue: { delivery.appendLocked(value, to: &backlog) },
            mayWaitForRoom: { true }, deliverOwn: { calls.call($0) }, next: { nextLocked() },
            deliver: { calls.call($0) })
        if let nested { calls.call(nested) }
    }

    func nextLocked() -> DeliveryStep<Int> {
        guard let value = delivery.takeLocked(from: &backlog) else { return .idle }
        return .deliver(value)
    }

    /// The role given up and nothing left queued.
    func idleViolations() -> [String] {
        lock.withLock {
            delivery.role.load(ordering: .relaxed) == 0 && backlog.isEmpty
                ? [] : ["the role was kept (\(delivery.role.load(ordering: .relaxed))) or events were left queued"]
        }
    }
}

/// The "queue first" front: events wait in the owner's queue, delivered within demand by
/// whoever holds the role (as `QueuedSubscription`).
class QueueFirstOwner: FakeOwner, @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var queue = RingQueue<Int>()
    var demand: Int
    let calls = RecordedCalls()

    init(demand: Int) { self.demand = demand }

    func send(_ value: Int) {
        lock.acquire()
        delivery.appendLocked(value, to: &queue)
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: true, queued: { queue.count }, next: { nextLocked() },
            deliver: { calls.call($0) })
    }

    func request(_ more: Int) {
        lock.acquire()
        demand += more
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: false, queued: { queue.count }, next: { nextLocked() },
            deliver: { calls.call($0) })
    }

    func nextLocked() -> DeliveryStep<Int> {
        guard demand > 0, let value = delivery.takeLocked(from: &queue) else { return .idle }
        demand -= 1
        return .deliver(value)
    }

    /// The role given up, and no value left waiting while there is demand for it.
    func idleViolations() -> [String] {
        lock.withLock {
            var found: [String] = []
            if delivery.role.load(ordering: .relaxed) != 0 { found.append("the role was kept") }
            if demand > 0 && !queue.isEmpty { found.append("\(queue.count) values left queued with demand \(demand)") }
            return found
        }
    }
}

/// The queue-first front for owners whose backlog is bounded by other means (`mayWait: false`,
/// as receive(on:)): each event is counted as owed, and the thread holding the role delivers
/// what is owed; a nested send delivers only its own event.
final class KeepingLockOwner: FakeOwner, @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var values = RingQueue<Int>()
    var owed = 0
    let calls = RecordedCalls()

    func send(_ value: Int) {
        let me = currentThreadID()
        lock.acquire()
        values.append(value)
        owed += 1
        let nested = delivery.isDelivering(me: me)
        var ownLeft = true
        delivery.serveLocked(
            me: me, lock: lock, afterQueuing: true, mayWait: false, queued: { owed },
            next: {
                guard owed > 0, ownLeft else { return .idle }
                if nested { ownLeft = false }
                owed -= 1
                guard let value = delivery.takeLocked(from: &values) else { return .idle }
                return .deliver(value)
            }, deliver: { calls.call($0) })
    }

    func idleViolations() -> [String] {
        lock.withLock {
            delivery.role.load(ordering: .relaxed) == 0 && values.isEmpty && owed == 0
                ? [] : ["the role was kept, values were left or actions still owed (\(owed))"]
        }
    }
}

/// The own-first front of a lock-based owner (as `QueuedSubscription`'s direct delivery): a
/// value goes straight to the subscriber from the thread that has it when nothing is queued
/// ahead, nobody else delivers and there is demand for it; otherwise it is queued, delivered
/// within demand by whoever holds the role (the queue-first owner's queue, demand and checks).
final class DirectFirstOwner: QueueFirstOwner, @unchecked Sendable {
    override func send(_ value: Int) {
        lock.acquire()
        _ = delivery.deliverOwnLocked(
            me: currentThreadID(), lock: lock, mayWait: true,
            takeOwn: { () -> Int? in
                guard queue.isEmpty, demand > 0 else { return nil }
                demand -= 1
                return value
            }, enqueueOwn: { delivery.appendLocked(value, to: &queue) }, queued: { queue.count },
            deliverOwn: { calls.call($0) }, next: { nextLocked() }, deliver: { calls.call($0) })
    }
}

/// The one-shot front handing down a subscription (as `receive(on:)`, with its actions
/// queue-first with `takeOverNow`): `subscribe()` makes a call standing for
/// `receive(subscription:)` holding the role; values sent meanwhile from other threads must
/// not be delivered during it, and are delivered after it, by the thread that takes the role
/// over.
final class HandDownOwner: FakeOwner, @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var values = RingQueue<Int>()
    var handingOff = false
    var subscribed = false
    let calls = RecordedCalls()

    /// Hands down the subscription (recorded as the call `0`).
    func subscribe() {
        _ = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: true,
            beginLocked: { holding -> Int? in
                guard !subscribed else { return nil }
                handingOff = holding
                return 0
            },
            call: { _ in
                calls.call(0)
                lock.withLock { subscribed = true }
            }, endLocked: { handingOff = false }, next: { nextLocked() }, deliver: { calls.call($0) })
    }

    func send(_ value: Int) {
        lock.acquire()
        values.append(value)
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: true, mayWait: false, takeOverNow: handingOff,
            queued: { values.count }, next: { nextLocked() }, deliver: { calls.call($0) })
    }

    func nextLocked() -> DeliveryStep<Int> {
        guard subscribed, let value = values.popFirst() else { return .idle }
        return .deliver(value)
    }

    func idleViolations() -> [String] {
        lock.withLock {
            var found: [String] = []
            if delivery.role.load(ordering: .relaxed) != 0 { found.append("the role was kept") }
            if !values.isEmpty { found.append("\(values.count) values left queued") }
            return found
        }
    }
}

extension OwnFirstOwner {
    var peak: Int { lock.withLock { delivery.peakBacklogLocked } }
}

extension QueueFirstOwner {
    var peak: Int { lock.withLock { delivery.peakBacklogLocked } }
}

extension KeepingLockOwner {
    var peak: Int { lock.withLock { delivery.peakBacklogLocked } }
}

extension HandDownOwner {
    var peak: Int { lock.withLock { delivery.peakBacklogLocked } }
}

/// The one-shot front dropping a busy call (`deliverOnce`, as interval's tick): a tick that finds a
/// delivery under way is dropped, as one without demand is.
final class OnceOwner: @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var demand: Int
    var next = 0
    let calls = RecordedCalls()

    init(demand: Int) { self.demand = demand }

    func tick() {
        _ = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: false,
            beginLocked: { _ -> Int? in
                guard demand > 0 else { return nil }
                demand -= 1
                next += 1
                return next
            },
            call: { calls.call($0) }, endLocked: {}, next: { DeliveryStep<Never>.idle }, deliver: { _ in })
    }

    func request(_ more: Int) {
        lock.withLock { demand += more }
    }

    /// The role given up, and every unit of demand either spent on a call or still there.
    func violations(granted: Int) -> [String] {
        lock.withLock {
            var found = calls.violations(senders: [])
            if delivery.role.load(ordering: .relaxed) != 0 { found.append("the role was kept") }
            if calls.delivered.count + demand != granted {
                found.append("\(calls.delivered.count) delivered and \(demand) left of \(granted) granted")
            }
            return found
        }
    }
}
