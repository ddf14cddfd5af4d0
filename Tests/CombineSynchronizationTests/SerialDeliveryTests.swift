// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CombineSynchronization

@Suite("SerialDelivery: one call at a time, every value once, in each sender's order")
struct SerialDeliveryTests {
    @Test("one thread: values are delivered at once, in order, and the role is given up")
    func oneThread() {
        let owner = OwnFirstOwner()
        for value in 0..<10 { owner.send(value) }
        #expect(owner.calls.delivered == Array(0..<10))
        #expect(owner.idleViolations().isEmpty)
        #expect(owner.peak == 0, "an uncontended owner never queued")
    }

    @Test("a value sent from inside a call is delivered at once, nested, before the call returns")
    func nestedSend() {
        let owner = OwnFirstOwner()
        var order: [String] = []
        owner.calls.during = { value in
            order.append("in \(value)")
            if value == 1 { owner.send(-1) }
            order.append("out \(value)")
        }
        owner.send(1)
        owner.send(2)
        #expect(owner.calls.delivered == [1, -1, 2])
        #expect(order == ["in 1", "in -1", "out -1", "out 1", "in 2", "out 2"])
        #expect(owner.idleViolations().isEmpty)
    }

    /// The engine's fronts, each through its fake owner (FakeOwners.swift).
    enum Front: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case ownFirst = "deliver own first"
        case queueFirst = "queue first"
        case keepingLock = "claim keeping the lock"

        var testDescription: String { rawValue }

        func makeOwner() -> any FakeOwner {
            switch self {
            case .ownFirst: OwnFirstOwner()
            case .queueFirst: QueueFirstOwner(demand: .max)
            case .keepingLock: KeepingLockOwner()
            }
        }
    }

    @Test(
        "4 threads × 5,000 values into one owner with a slow call: each once, each thread's in order, never two calls at once, the backlog bounded",
        arguments: Front.allCases
    )
    func fourSenders(front: Front) async {
        await offThePool {
            let owner = front.makeOwner()
            owner.calls.during = { _ in
                // A little work per call, so that senders find the role taken and queue.
                for _ in 0..<50 { spinSink.add(1, ordering: .relaxed) }
            }
            let senders = 4
            let perSender = 5_000
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { owner.send(sender * perSender + index) }
            }
            #expect(owner.idleViolations().isEmpty, "the role was not given up, or events were left queued")
            #expect(owner.calls.overlaps == 0)
            let delivered = owner.calls.delivered
            #expect(delivered.count == senders * perSender)
            #expect(Set(delivered).count == senders * perSender, "a value was delivered twice")
            for sender in 0..<senders {
                let own = delivered.filter { $0 / perSender == sender }
                #expect(own == Array(sender * perSender..<(sender + 1) * perSender), "sender \(sender)'s order changed")
            }
            // Queue first: at most one event per producing thread beyond the limit. Claim keeping
            // the lock: the owner's queue is bounded by other means (a scheduler's actions).
            if front != .keepingLock { #expect(owner.peak <= SerialDelivery.Limits.backlog + senders) }
        }
    }
}

private let spinSink = Atomic<Int>(0)
