// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// A subscriber that asks for one value at a time, counts the values instead of storing
/// them, and records how far apart on the stack its calls land: a source that recursed
/// per value would show a growing spread (or overflow the stack).
final class StackProbeSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    private let reentrant: Bool
    private var subscription: Subscription?
    private(set) var count = 0
    private(set) var inOrder = true
    private(set) var completions = 0
    private(set) var lowestFrame = UInt.max
    private(set) var highestFrame = UInt.min

    /// - Parameter reentrant: ask for the next value with `request(.max(1))` from inside
    ///   `receive(_:)` instead of returning `.max(1)`.
    init(reentrant: Bool) {
        self.reentrant = reentrant
    }

    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        var marker = 0
        let frame = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        lowestFrame = min(lowestFrame, frame)
        highestFrame = max(highestFrame, frame)
        if input != count { inOrder = false }
        count += 1
        if reentrant {
            subscription?.request(.max(1))
            return .none
        }
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {
        completions += 1
        subscription = nil
    }

    var stackSpread: UInt { highestFrame &- lowestFrame }
}

@Suite("Contract: every source, one value at a time")
struct SourceContractTests {
    /// Ten million values (a million under a sanitizer).
    @Test func tenMillionValuesOneAtATimeByReturnedDemand() async {
        await offThePool {
            let count = valueCountForLongRuns(10_000_000)
            let subscriber = StackProbeSubscriber(reentrant: false)
            (0..<count).publisher.subscribe(subscriber)
            #expect(subscriber.count == count)
            #expect(subscriber.inOrder)
            #expect(subscriber.completions == 1)
            #expect(subscriber.stackSpread < 4_096)
        }
    }

    /// A million values (a hundred thousand under a sanitizer).
    @Test func aMillionValuesOneAtATimeByReentrantRequest() async {
        await offThePool {
            let count = valueCountForLongRuns(1_000_000)
            let subscriber = StackProbeSubscriber(reentrant: true)
            (0..<count).publisher.subscribe(subscriber)
            #expect(subscriber.count == count)
            #expect(subscriber.inOrder)
            #expect(subscriber.completions == 1)
            #expect(subscriber.stackSpread < 4_096)
        }
    }

    /// A million values (a hundred thousand under a sanitizer).
    @Test func recordOfAMillionValuesOneAtATime() async {
        await offThePool {
            let count = valueCountForLongRuns(1_000_000)
            let subscriber = StackProbeSubscriber(reentrant: true)
            Record<Int, Never>(output: Array(0..<count), completion: .finished).subscribe(subscriber)
            #expect(subscriber.count == count)
            #expect(subscriber.completions == 1)
            #expect(subscriber.stackSpread < 4_096)
        }
    }

    @Test func testSubscriberAskingOneAtATimeOverAHundredThousandValues() async {
        await offThePool {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            (0..<100_000).publisher.subscribe(subscriber)
            #expect(subscriber.values == Array(0..<100_000))
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test(arguments: SyncSource.allCases)
    func oneValueAtATimeKeepsTheContract(_ source: SyncSource) {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        source.makePublisher().subscribe(subscriber)
        #expect(subscriber.values == source.values)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.subscriptionCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test(arguments: SyncSource.allCases)
    func nothingArrivesBeforeTheFirstRequest(_ source: SyncSource) {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        source.makePublisher().subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.values == [source.values[0]])
        subscriber.request(.unlimited)
        #expect(subscriber.values == source.values)
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test(arguments: SyncSource.allCases)
    func nothingArrivesAfterCancel(_ source: SyncSource) {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        source.makePublisher().subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.unlimited)
        subscriber.cancel()
        #expect(subscriber.events == [.subscription])
        #expect(subscriber.violations.isEmpty)
    }

    @Test(arguments: SyncSource.allCases)
    func subscriberAndSubscriptionAreReleasedAfterCompletion(_ source: SyncSource) {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        weak var weakSubscription: AnyObject?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            source.makePublisher().subscribe(subscriber)
            weakSubscription = subscriber.subscription.map { $0 as AnyObject }
            #expect(subscriber.completion == .finished)
        }
        #expect(weakSubscriber == nil)
        #expect(weakSubscription == nil)
    }

    @Test(arguments: SyncSource.allCases)
    func subscriberAndSubscriptionAreReleasedAfterCancel(_ source: SyncSource) {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        let subscription: Subscription?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            weakSubscriber = subscriber
            source.makePublisher().subscribe(subscriber)
            subscription = subscriber.subscription
        }
        // Live, the subscription and its subscriber keep each other.
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
        withExtendedLifetime(subscription) {}
    }
}
