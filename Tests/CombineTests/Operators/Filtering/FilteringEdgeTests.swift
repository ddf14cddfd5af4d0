// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// The edges of the filtering operators' subscriptions, as Apple's Combine handles them
// (recorded by the Apple-verified conformance suite; ARCHITECTURE.md, "Edge policies").
// Apple's filtering operators come in two shapes, and code tested on Apple's platforms sees
// which one an operator has: the strict one traps on events before its subscription, the
// lenient one ignores a cancel or request that comes early.

/// A publisher that keeps the subscriber it is given without sending a subscription, so a
/// test can send events before one, or a subscription of its own choosing later.
final class HeldSubscriberPublisher<Output, Failure: Error>: Publisher {
    /// The operator's subscriber as it was given, to inspect it.
    private(set) var subscriber: (any Subscriber)?
    private var erased: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        erased = AnySubscriber(subscriber)
    }

    /// The operator's subscriber seen as the subscription it hands downstream.
    var subscription: (any Subscription)? { subscriber as? any Subscription }

    func send(subscription: any Subscription) {
        erased?.receive(subscription: subscription)
    }

    func send(_ value: Output) -> Subscribers.Demand {
        erased?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        erased?.receive(completion: completion)
    }
}

/// A subscription that records what it is asked.
final class RecordingSubscription: Subscription, @unchecked Sendable {
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancelCount = 0
    func request(_ demand: Subscribers.Demand) { requests.append(demand) }
    func cancel() { cancelCount += 1 }
}

@Suite("Filtering operators: the edges of the subscription, as Apple's")
struct FilteringEdgeTests {
    /// Apple's `tryFilter`, `tryCompactMap`, `prefix(while:)` and `removeDuplicates` trap on a
    /// value that comes before their subscription.
    @Test func aStrictOperatorTrapsOnAValueBeforeItsSubscription() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let upstream = HeldSubscriberPublisher<Int, Never>()
                upstream.removeDuplicates().subscribe(TestSubscriber<Int, Never>())
                _ = upstream.send(1)
            }
        }
        #expect(
            standardErrorText(of: result).contains("RemoveDuplicates received a value before receiving a subscription"))
    }

    @Test func aStrictOperatorTrapsOnARequestForNothing() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
                TestPublisher<Int, Never>().prefix(while: { _ in true }).subscribe(subscriber)
                subscriber.subscription?.request(.none)
            }
        }
        #expect(standardErrorText(of: result).contains("API Violation: demand must not be zero"))
    }

    /// A cancel before the subscription is final for a strict operator: the subscription that
    /// comes later is cancelled and never reaches the subscriber.
    @Test func aStrictOperatorCancelsASubscriptionThatComesAfterItsCancel() throws {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryFilter { _ in true }.subscribe(subscriber)
        try #require(upstream.subscription).cancel()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 1)
        #expect(subscriber.subscriptionCount == 0)
    }

    /// Apple's `tryMap`, `drop(while:)`, `output(in:)`, `tryScan`, `encode` and `decode`
    /// ignore a cancel that comes before their subscription: the subscription that comes
    /// later is taken and handed to the subscriber, which may still use it.
    @Test func aLenientOperatorIgnoresACancelBeforeItsSubscription() throws {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(2))
        upstream.tryMap { $0 * 2 }.subscribe(subscriber)
        try #require(upstream.subscription).cancel()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(2)])
        #expect(upstream.send(3) == .none)
        #expect(subscriber.values == [6])
    }

    /// A thrown error on a value before the subscription reaches the subscriber with Apple's
    /// `tryMap` (and `encode`, `decode`), and the subscription that comes later is cancelled.
    @Test func anEarlyThrowFailsTryMap() {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryMap { _ in throw CoreTestError(code: 4) }.subscribe(subscriber)
        _ = upstream.send(1)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("tryMap did not fail")
            return
        }
        #expect(error as? CoreTestError == CoreTestError(code: 4))
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 1)
    }

    /// `drop(while:)` drops what comes before its subscription without asking its predicate;
    /// `output(in:)` handles early values as if the subscription had come.
    @Test func earlyValuesAreDroppedOrHandledAsApplesAre() {
        let dropping = HeldSubscriberPublisher<Int, Never>()
        var asked = 0
        let dropSubscriber = TestSubscriber<Int, Never>()
        dropping.drop(while: { _ in
            asked += 1
            return true
        }).subscribe(dropSubscriber)
        #expect(dropping.send(1) == .none)
        #expect(asked == 0)
        #expect(dropSubscriber.events.isEmpty)

        let ranged = HeldSubscriberPublisher<Int, Never>()
        let rangeSubscriber = TestSubscriber<Int, Never>(initialDemand: .none, onValue: { _ in .max(5) })
        ranged.output(in: 1..<3).subscribe(rangeSubscriber)
        #expect(ranged.send(10) == .max(1))  // before the range: one more is asked for
        #expect(ranged.send(11) == .max(5))
        #expect(ranged.send(12) == .max(5))  // the last in range returns the subscriber's demand
        #expect(ranged.send(13) == .none)  // past the range: no completion without a subscription
        #expect(rangeSubscriber.values == [11, 12])
        #expect(rangeSubscriber.completion == nil)
        let late = RecordingSubscription()
        ranged.send(subscription: late)
        #expect(rangeSubscriber.subscriptionCount == 1)
        #expect(ranged.send(14) == .none)
        #expect(late.cancelCount == 1)
        #expect(rangeSubscriber.completion == .finished)
    }

    /// Apple's `dropFirst` hands the subscriber its subscription before subscribing upstream,
    /// then asks upstream for its count plus what the subscriber asked for by then, even when
    /// the subscriber asked for nothing.
    @Test func dropFirstAsksForItsCountWhenTheSubscriptionComes() {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(10))
        upstream.dropFirst(4).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)
        let subscription = RecordingSubscription()
        upstream.send(subscription: subscription)
        #expect(subscription.requests == [.max(14)])

        let quiet = TestPublisher<Int, Never>()
        let waiting = TestSubscriber<Int, Never>(initialDemand: .none)
        quiet.dropFirst(2).subscribe(waiting)
        #expect(quiet.requests == [.max(2)])
        waiting.cancel()
        #expect(quiet.cancelCount == 1)
    }

    /// Apple checks `dropFirst`'s count when a subscriber attaches, not when the publisher is
    /// made.
    @Test func aNegativeDropCountTrapsWhenSubscribed() async {
        let publisher = PassthroughSubject<Int, Never>().dropFirst(-1)
        #expect(publisher.count == -1)
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = PassthroughSubject<Int, Never>().dropFirst(-1).sink { _ in }
            }
        }
        #expect(standardErrorText(of: result).contains("the count must not be negative"))
    }

    /// Apple's `scan` passes the upstream subscription straight to its subscriber.
    @Test func scanHandsOnTheUpstreamSubscription() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.scan(0, +).subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "TestPublisher")
        _ = upstream.send(1)
        _ = upstream.send(2)
        #expect(subscriber.values == [1, 3])
    }

    /// Descriptions and mirrors, as Apple's operators show them.
    @Test func reflectionMatchesApples() throws {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        upstream.removeDuplicates().subscribe(TestSubscriber<Int, Never>())
        let removing = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect("\(removing)" == "RemoveDuplicates")
        #expect(removing.customMirror.children.map(\.label) == ["downstream", "last"])
        #expect("\(removing.customMirror.children.map(\.value).last!)" == "nil")

        upstream.map { $0 + 1 }.subscribe(TestSubscriber<Int, Never>())
        let mapping = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect(mapping.customMirror.children.isEmpty)
        #expect((mapping as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Map")

        upstream.scan(5, +).subscribe(TestSubscriber<Int, Never>())
        let scanning = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect(scanning.customMirror.children.map(\.label) == ["downstream", "result"])

        let coded = HeldSubscriberPublisher<Int, Never>()
        coded.encode(encoder: JSONLikeEncoder()).subscribe(TestSubscriber<String, any Error>())
        let encoding = try #require(coded.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect(encoding.customMirror.children.map(\.label) == ["downstream", "finished", "upstreamSubscription"])
    }
}

/// A `TopLevelEncoder` that needs no Foundation: it writes the value's description.
struct JSONLikeEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String { "\(value)" }
}
