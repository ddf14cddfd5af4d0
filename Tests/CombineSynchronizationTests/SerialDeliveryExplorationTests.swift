// SPDX-License-Identifier: Apache-2.0
#if DEBUG
import TestSupport
import Testing

@testable import CombineSynchronization

// The engine's fronts under every interleaving of two or three threads (up to two preemptions),
// through the smallest owner of each: the explorer (Tests/TestSupport/InterleavingExplorer.swift)
// runs each scenario once per interleaving and these checks run after each run. Small limits
// (a backlog of 1 or 2, a budget of 1) make a few events fill the backlog and use up the budget,
// so the waiting and hand-over paths are explored too.

@Suite("SerialDelivery under every interleaving (up to two preemptions)")
struct SerialDeliveryExplorationTests {
    /// Expects a complete exploration with no violation, and returns it for the log.
    static func expectClean(_ report: InterleavingExplorer.Report, _ name: String = #function) {
        print("explored \(name): \(report)")
        #expect(report.violations.isEmpty, "\(report)")
        #expect(report.complete, "\(report)")
        #expect(report.runs > 1, "nothing was explored: \(report)")
    }

    /// Threads each sending its list of values into a fresh owner; checks the rules of every
    /// delivery, the owner's state at the end and how many values arrived.
    static func senders(
        _ sent: [[Int]], delivering expected: Int, into makeOwner: @escaping @Sendable () -> any FakeOwner
    ) -> @Sendable () -> InterleavingExplorer.Run {
        {
            let owner = makeOwner()
            return .init(
                threads: sent.map { values in { for value in values { owner.send(value) } } },
                check: {
                    var found = owner.calls.violations(senders: sent) + owner.idleViolations()
                    if owner.calls.delivered.count != expected { found.append("delivered \(owner.calls.delivered)") }
                    return found
                })
        }
    }

    @Test("deliver own first: two senders of two values each, a backlog of 1 and a budget of 1")
    func ownFirstTwoSenders() async {
        let report = await InterleavingExplorer.explore(
            backlog: 1, budget: 1, Self.senders([[1, 2], [11, 12]], delivering: 4) { OwnFirstOwner() })
        Self.expectClean(report)
    }

    @Test("deliver own first: three senders, a backlog of 1 and a budget of 1")
    func ownFirstThreeSenders() async {
        let report = await InterleavingExplorer.explore(
            backlog: 1, budget: 1, Self.senders([[1], [2], [3]], delivering: 3) { OwnFirstOwner() })
        Self.expectClean(report)
    }

    @Test("deliver own first: a value sent from inside a call is delivered nested while another thread sends")
    func ownFirstNested() async {
        let report = await InterleavingExplorer.explore(backlog: 2, budget: 2) {
            let owner = OwnFirstOwner()
            var nestedAt: Int?
            owner.calls.during = { value in
                if value == 1 {
                    owner.send(100)
                    nestedAt = owner.calls.delivered.firstIndex(of: 100)
                }
            }
            return .init(
                threads: [{ owner.send(1) }, { owner.send(11) }],
                check: {
                    var found = owner.calls.violations(senders: [[1], [11]]) + owner.idleViolations()
                    let delivered = owner.calls.delivered
                    if delivered.count != 3 { found.append("delivered \(delivered)") }
                    if let one = delivered.firstIndex(of: 1), nestedAt != one + 1 {
                        found.append("the nested value was not delivered inside the call: \(delivered)")
                    }
                    return found
                })
        }
        Self.expectClean(report)
    }

    @Test("queue first: two senders into a demand of 3, a backlog of 1")
    func queueFirstTwoSenders() async {
        let report = await InterleavingExplorer.explore(
            backlog: 1, budget: 1, Self.senders([[1, 2], [11, 12]], delivering: 3) { QueueFirstOwner(demand: 3) })
        Self.expectClean(report)
    }

    @Test("queue first: a sender and a request trickling demand from another thread")
    func queueFirstSenderAndRequest() async {
        Self.expectClean(await Self.senderAndRequests { QueueFirstOwner(demand: 0) })
    }

    /// One thread sending three values into no demand while two others request one each.
    static func senderAndRequests(
        into makeOwner: @escaping @Sendable () -> QueueFirstOwner
    ) async -> InterleavingExplorer.Report {
        await InterleavingExplorer.explore(backlog: 2, budget: 1) {
            let owner = makeOwner()
            let sent = [1, 2, 3]
            return .init(
                threads: [{ for value in sent { owner.send(value) } }, { owner.request(1) }, { owner.request(1) }],
                check: {
                    var found = owner.calls.violations(senders: [sent]) + owner.idleViolations()
                    if owner.calls.delivered != [1, 2] { found.append("delivered \(owner.calls.delivered)") }
                    return found
                })
        }
    }

    @Test("queue first, never waiting for room (as receive(on:)): two senders, a budget of 1")
    func keepingLockTwoSenders() async {
        let report = await InterleavingExplorer.explore(
            budget: 1, Self.senders([[1, 2], [11, 12]], delivering: 4) { KeepingLockOwner() })
        Self.expectClean(report)
    }

    @Test("own first, on a lock: two senders into a demand of 3, a backlog of 1 and a budget of 1")
    func directFirstTwoSenders() async {
        let report = await InterleavingExplorer.explore(
            backlog: 1, budget: 1, Self.senders([[1, 2], [11, 12]], delivering: 3) { DirectFirstOwner(demand: 3) })
        Self.expectClean(report)
    }

    @Test("own first, on a lock: a sender and demand trickled from two other threads")
    func directFirstSenderAndRequests() async {
        Self.expectClean(await Self.senderAndRequests { DirectFirstOwner(demand: 0) })
    }

    @Test("own first, on a lock: a value sent from inside a call goes out nested while another thread sends")
    func directFirstNested() async {
        let report = await InterleavingExplorer.explore(backlog: 2, budget: 2) {
            let owner = DirectFirstOwner(demand: 3)
            owner.calls.during = { value in if value == 1 { owner.send(100) } }
            return .init(
                threads: [{ owner.send(1) }, { owner.send(11) }],
                check: {
                    var found = owner.calls.violations(senders: [[1, 100], [11]]) + owner.idleViolations()
                    if owner.calls.delivered.count != 3 { found.append("delivered \(owner.calls.delivered)") }
                    return found
                })
        }
        Self.expectClean(report)
    }

    @Test("hand down: the subscription handed down while two threads send (one takes the role over)")
    func handDownWhileSending() async {
        let report = await InterleavingExplorer.explore(budget: 1) {
            let owner = HandDownOwner()
            let sent = [[1, 2], [11]]
            return .init(
                threads: [{ owner.subscribe() }] + sent.map { values in { for value in values { owner.send(value) } } },
                check: {
                    var found = owner.calls.violations(senders: [[0]] + sent) + owner.idleViolations()
                    let delivered = owner.calls.delivered
                    if delivered.first != 0 || delivered.count != 4 {
                        found.append("the subscription was not first, or values were lost: \(delivered)")
                    }
                    return found
                })
        }
        Self.expectClean(report)
    }

    @Test("one-shot delivery: two tickers and a request from a third thread")
    func onceTickersAndRequest() async {
        let report = await InterleavingExplorer.explore {
            let owner = OnceOwner(demand: 1)
            return .init(
                threads: [
                    {
                        owner.tick()
                        owner.tick()
                    },
                    { owner.tick() }, { owner.request(1) },
                ],
                check: { owner.violations(granted: 2) })
        }
        Self.expectClean(report)
    }

    @Test("the explorer finds a lost event: an owner that gives the role up without looking at its queue")
    func explorerFindsALostEvent() async {
        // A deliberately broken owner: the delivering thread gives the role up with the
        // lock-free compare-and-swap only, never the loop, so an event queued meanwhile stays
        // queued. The explorer must find the interleaving that strands it.
        final class Broken: @unchecked Sendable {
            let owner = OwnFirstOwner()
            func send(_ value: Int) {
                let me = currentThreadID()
                owner.lock.acquire()
                var claim = owner.delivery.claimLocked(me: me)
                if case .busy(let seen) = claim {
                    claim = owner.delivery.handOffLocked(
                        seen: seen, me: me, mayWait: false, queued: { owner.backlog.count },
                        enqueue: { owner.delivery.appendLocked(value, to: &owner.backlog) })
                }
                owner.lock.release()
                if case .outermost = claim {
                    owner.calls.call(value)
                    if !owner.delivery.releaseIfIdle(me: me) {
                        owner.delivery.role.store(0, ordering: .releasing)
                    }
                }
            }
        }
        let report = await InterleavingExplorer.explore {
            let broken = Broken()
            return .init(
                threads: [{ broken.send(1) }, { broken.send(2) }],
                check: {
                    broken.owner.calls.delivered.count == 2 ? [] : ["delivered \(broken.owner.calls.delivered)"]
                })
        }
        #expect(!report.violations.isEmpty, "the explorer missed the stranded event: \(report)")
        #expect(report.runs > 1)
    }
}
#endif
