// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// handleEvents, print and breakpoint at the edges of their subscription, as Apple's (recorded
// by the Apple-verified conformance suite).

/// A stream that keeps each write apart.
final class WriteLog: TextOutputStream, @unchecked Sendable {
    var writes: [String] = []
    func write(_ string: String) { writes.append(string) }
}

@Suite("handleEvents, print and breakpoint: the edges, as Apple's")
struct EventHandlingEdgeTests {
    /// Apple's `handleEvents` reports the demand a subscriber returns for a value as a
    /// request, unless it is `.none`.
    @Test func demandReturnedForAValueIsReportedAsARequest() {
        let upstream = TestPublisher<Int, Never>()
        let reported = LockedValue<[Subscribers.Demand]>([])
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { $0 == 1 ? .max(3) : .none })
        upstream.handleEvents(receiveRequest: { demand in reported.append(demand) }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(reported.current == [.max(1), .max(3)])
        #expect(upstream.requests == [.max(1)])
    }

    /// A cancel before the subscription is reported and otherwise ignored by Apple's
    /// `handleEvents`: the subscription that comes later is taken and handed on.
    @Test func aCancelBeforeTheSubscriptionIsReportedThenTheSubscriptionTaken() throws {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let events = LockedValue<[String]>([])
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.handleEvents(
            receiveSubscription: { _ in events.append("subscription") }, receiveCancel: { events.append("cancel") }
        ).subscribe(subscriber)
        try #require(upstream.subscription).cancel()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(events.current == ["cancel", "subscription"])
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(1)])
    }

    /// After a cancel, `handleEvents` has released its closures; `print` keeps logging what
    /// still arrives, as Apple's does.
    @Test func afterACancelPrintStillLogsAndHandleEventsDoesNot() {
        let log = WriteLog()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.print("p", to: log).subscribe(subscriber)
        subscriber.cancel()
        let before = log.writes.count
        subscriber.subscription?.cancel()
        #expect(log.writes.count > before)
        #expect(log.writes.joined().hasSuffix("p: receive cancel\np: receive cancel\n"))

        let cancels = LockedValue(0)
        let other = TestSubscriber<Int, Never>()
        TestPublisher<Int, Never>().handleEvents(receiveCancel: { cancels.withLock { $0 += 1 } }).subscribe(other)
        other.cancel()
        other.subscription?.cancel()
        #expect(cancels.current == 1)
    }

    /// `print` writes each line through `print(_:to:)`, so the stream sees the line and its
    /// terminator as separate writes, as with Apple's.
    @Test func printWritesTheLineAndTheTerminatorApart() {
        let log = WriteLog()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Empty<Int, Never>(completeImmediately: false).print(to: log).subscribe(subscriber)
        #expect(log.writes.filter { !$0.isEmpty } == ["receive subscription: (Empty)", "\n"])
    }

    /// Apple's `breakpoint` passes the upstream subscription straight through.
    @Test func breakpointPassesTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.breakpoint().subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestPublisher")
    }
}
