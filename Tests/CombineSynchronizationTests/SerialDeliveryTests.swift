// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CombineSynchronization

/// The smallest owner of a ``SerialDelivery``: values sent from any thread are "delivered" by
/// appending them to a list, one call at a time, following the engine's claims as a subject's
/// subscription does (queue for the delivering thread, take the role over after its budget,
/// wait for room in a full backlog, deliver nested from inside a call).
private final class Owner: @unchecked Sendable {
    let lock = Lock()
    let delivery = SerialDelivery()
    var backlog = RingQueue<Int>()
    /// Written only by the thread holding the role.
    var delivered: [Int] = []
    let inCall = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    /// Called inside each delivery (after it is recorded), on the delivering thread.
    var onCall: (Int) -> Void = { _ in }

    func send(_ value: Int) {
        let me = currentThreadID()
        while true {
            lock.acquire()
            var claim = delivery.claimLocked(me: me)
            if case .busy(let seen) = claim {
                claim = delivery.handOffLocked(value, to: &backlog, seen: seen, me: me, mayWait: true)
            }
            lock.release()
            let done = delivery.follow(
                claim, me: me, lock: lock, deliverOwn: { call(value) }, next: { nextLocked() }, deliver: { call($0) })
            if done { return }
        }
    }

    func nextLocked() -> DeliveryStep<Int> {
        guard let value = delivery.takeLocked(from: &backlog) else { return .idle }
        return .deliver(value)
    }

    func call(_ value: Int) {
        if inCall.add(1, ordering: .acquiringAndReleasing).newValue > 1, value >= 0 {
            overlaps.add(1, ordering: .relaxed)
        }
        delivered.append(value)
        onCall(value)
        inCall.subtract(1, ordering: .acquiringAndReleasing)
    }

    var idle: Bool {
        lock.withLock { delivery.role.load(ordering: .acquiring) == 0 && backlog.isEmpty }
    }

    var peak: Int { lock.withLock { delivery.peakBacklogLocked } }
}

@Suite("SerialDelivery: one call at a time, every value once, in each sender's order")
struct SerialDeliveryTests {
    @Test("one thread: values are delivered at once, in order, and the role is given up")
    func oneThread() {
        let owner = Owner()
        for value in 0..<10 { owner.send(value) }
        #expect(owner.delivered == Array(0..<10))
        #expect(owner.idle)
        #expect(owner.peak == 0, "an uncontended owner never queued")
    }

    @Test("a value sent from inside a call is delivered at once, nested, before the call returns")
    func nestedSend() {
        let owner = Owner()
        var order: [String] = []
        owner.onCall = { value in
            order.append("in \(value)")
            if value == 1 { owner.send(-1) }
            order.append("out \(value)")
        }
        owner.send(1)
        owner.send(2)
        #expect(owner.delivered == [1, -1, 2])
        #expect(order == ["in 1", "in -1", "out -1", "out 1", "in 2", "out 2"])
        #expect(owner.idle)
    }

    @Test(
        "4 threads × 5,000 values into one owner with a slow call: each once, each thread's in order, never two calls at once, the backlog bounded"
    )
    func fourSenders() {
        let owner = Owner()
        owner.onCall = { _ in
            // A little work per call, so that senders find the role taken and queue.
            for _ in 0..<50 { spinSink.add(1, ordering: .relaxed) }
        }
        let senders = 4
        let perSender = 5_000
        runOverlapping(threads: senders) { sender in
            for index in 0..<perSender { owner.send(sender * perSender + index) }
        }
        #expect(owner.idle, "the role was not given up, or events were left queued")
        #expect(owner.overlaps.load(ordering: .relaxed) == 0)
        let delivered = owner.delivered
        #expect(delivered.count == senders * perSender)
        #expect(Set(delivered).count == senders * perSender, "a value was delivered twice")
        for sender in 0..<senders {
            let own = delivered.filter { $0 / perSender == sender }
            #expect(own == Array(sender * perSender..<(sender + 1) * perSender), "sender \(sender)'s order changed")
        }
        #expect(owner.peak <= SerialDelivery.Limits.backlog + 2)
    }
}

private let spinSink = Atomic<Int>(0)
