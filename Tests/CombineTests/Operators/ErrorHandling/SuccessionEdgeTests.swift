// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// catch, retry and append at the edges of their subscriptions, as Apple's (recorded by the
// Apple-verified conformance suite).

/// Fails its first `failures` subscribers at once, then sends `value` and finishes.
final class FailingThenSucceeding: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = CoreTestError

    private var failures: Int
    private(set) var subscribes = 0

    init(failures: Int) {
        self.failures = failures
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == CoreTestError {
        subscribes += 1
        if failures > 0 {
            failures -= 1
            Fail<Int, CoreTestError>(error: CoreTestError(code: failures)).subscribe(subscriber)
        } else {
            Just(7).setFailureType(to: CoreTestError.self).subscribe(subscriber)
        }
    }
}

@Suite("catch, retry and append: the edges, as Apple's")
struct SuccessionEdgeTests {
    /// Apple's `catch` hands its subscriber the subscription when the upstream's comes.
    @Test func catchSendsItsSubscriptionWhenTheUpstreamsComes() {
        let upstream = HeldSubscriberPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.catch { _ in Just(0) }.subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 0)
        upstream.send(completion: .finished)  // a `.finished` before the subscription is ignored
        #expect(subscriber.events.isEmpty)
        upstream.send(subscription: RecordingSubscription())
        #expect(subscriber.subscriptionCount == 1)
    }

    /// Apple's `catch` counts its subscriber's demand and traps on a value beyond it.
    @Test func catchTrapsOnAValueItsSubscriberDidNotRequest() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let upstream = TestPublisher<Int, CoreTestError>()
                upstream.catch { _ in Just(0) }.subscribe(TestSubscriber<Int, Never>(initialDemand: .max(1)))
                upstream.send(1)
                upstream.send(2)
            }
        }
        #expect(standardErrorText(of: result).contains("Catch received a value its subscriber did not request"))
    }

    /// The replacement is asked for what is left of the subscriber's demand.
    @Test func catchAsksTheReplacementForTheDemandLeft() {
        let upstream = TestPublisher<Int, CoreTestError>()
        let replacement = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(5))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(CoreTestError(code: 1)))
        #expect(replacement.requests == [.max(3)])
    }

    /// Apple's `retry` asks the upstream for the demand its subscriber returns for a value
    /// itself, and returns `.none`.
    @Test func retryAsksForReturnedDemandItself() {
        let upstream = TestPublisher<Int, CoreTestError>()
        let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .max(1), onValue: { _ in .max(2) })
        upstream.retry(1).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        #expect(upstream.requests == [.max(1), .max(2)])
    }

    /// A negative count never reaches zero: Apple's `retry(-1)` retries for ever.
    @Test func aNegativeRetryCountRetriesForEver() {
        let upstream = FailingThenSucceeding(failures: 5)
        let subscriber = TestSubscriber<Int, CoreTestError>()
        upstream.retry(-1).subscribe(subscriber)
        #expect(subscriber.values == [7])
        #expect(subscriber.completion == .finished)
        #expect(upstream.subscribes == 6)
    }

    /// An upstream that fails during its subscribe is subscribed again after that subscribe
    /// returns, so many retries do not grow the stack.
    @Test func retriesOfAnUpstreamThatFailsAtOnceDoNotRecurse() async {
        await offThePool {
            let upstream = FailingThenSucceeding(failures: 100_000)
            let subscriber = TestSubscriber<Int, CoreTestError>()
            upstream.retry(100_000).subscribe(subscriber)
            #expect(subscriber.values == [7])
            #expect(upstream.subscribes == 100_001)
        }
    }

    /// Apple's `append` drops a prefix value beyond its subscriber's demand (no trap), and a
    /// cancel releases the suffix.
    @Test func appendDropsUnrequestedValuesAndReleasesTheSuffixOnCancel() {
        let prefix = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        weak var released: TestPublisher<Int, Never>?
        do {
            let suffix = TestPublisher<Int, Never>()
            released = suffix
            prefix.append(suffix).subscribe(subscriber)
        }
        prefix.send(1)
        #expect(prefix.send(2) == .none)
        #expect(subscriber.values == [1])
        #expect(released != nil)
        subscriber.cancel()
        #expect(released == nil)
    }
}

@Suite("replaceError, replaceEmpty and collect(_:): the edges, as Apple's")
struct FallbackEdgeTests {
    /// Apple's `replaceEmpty` asks upstream for everything once it has handed on its
    /// subscription, and still passes on the subscriber's own requests.
    @Test func replaceEmptyAsksForEverything() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.replaceEmpty(with: 0).subscribe(subscriber)
        #expect(upstream.requests == [.max(2), .unlimited])
    }

    /// Apple's `replaceError` counts its subscriber's demand and traps on a value beyond it.
    @Test func replaceErrorTrapsOnAValueItsSubscriberDidNotRequest() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let upstream = TestPublisher<Int, CoreTestError>()
                upstream.replaceError(with: 0).subscribe(TestSubscriber<Int, Never>(initialDemand: .none))
                upstream.send(1)
            }
        }
        #expect(standardErrorText(of: result).contains("ReplaceError received a value its subscriber did not request"))
    }

    /// Before their subscription, `replaceError` and `collect(_:)` drop values, and a cancel
    /// is ignored: the subscription that comes later is taken.
    @Test func earlyValuesAreDroppedAndAnEarlyCancelIgnored() throws {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        upstream.collect(2).subscribe(subscriber)
        #expect(upstream.send(1) == .none)
        try #require(upstream.subscription).cancel()
        let late = RecordingSubscription()
        upstream.send(subscription: late)
        #expect(late.cancelCount == 0)
        #expect(late.requests == [.max(2)])
        _ = upstream.send(2)
        _ = upstream.send(3)
        #expect(subscriber.values == [[2, 3]])

        let collecting = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect(
            collecting.customMirror.children.map(\.label) == ["downstream", "upstreamSubscription", "buffer", "count"])
    }
}
