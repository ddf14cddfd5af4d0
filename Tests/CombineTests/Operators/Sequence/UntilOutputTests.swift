// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("drop(untilOutputFrom:), prefix(untilOutputFrom:)")
struct UntilOutputTests {
    @Test func dropsUntilTheOtherPublisherEmits() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(trigger.requests == [.max(1)])
        upstream.send(1)
        trigger.send(())
        #expect(trigger.cancelCount == 0)  // let go, not cancelled, as Apple's
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    /// As Apple's: a dropped value uses up one unit of the subscriber's demand (nothing is
    /// asked to replace it), and after the trigger the subscriber's answer is the upstream's.
    @Test func droppedValuesUseUpDemandAndAnswersPassThrough() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2), onValue: { _ in .max(3) })
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        #expect(upstream.send(1) == .none)
        trigger.send(())
        #expect(upstream.send(2) == .max(3))
        #expect(upstream.requests == [.max(2)])
        #expect(subscriber.values == [2])
    }

    /// An upstream that sends beyond the demand before the trigger fires breaks its contract:
    /// Apple's drop traps (its count goes below zero); ours names the rule.
    @Test func aValueBeyondTheDemandBeforeTheTriggerTraps() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let upstream = TestPublisher<Int, Never>()
                let trigger = PassthroughSubject<Void, Never>()
                let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
                upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
                _ = upstream.send(1)
                _ = upstream.send(2)
            }
        }
        #expect(
            standardErrorText(of: result).contains("DropUntilOutput received a value its subscriber did not request"))
    }

    /// As Apple's: the trigger finishing before any element finishes the drop and cancels the
    /// upstream; asking for `.none` is no error.
    @Test func theTriggerFinishingFirstFinishesTheDrop() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.subscription?.request(.none)
        trigger.send(completion: .finished)
        #expect(upstream.cancelCount == 1)
        #expect(trigger.cancelCount == 0)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func triggerFailureFailsTheDrop() {
        let upstream = TestPublisher<Int, Failure>()
        let trigger = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(completion: .failure(Failure(code: 1)))
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.completion == .failure(Failure(code: 1)))
    }

    @Test func prefixUntilOutputFinishesAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = PassthroughSubject<String, Failure>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        trigger.send("stop")
        #expect(upstream.cancelCount == 1)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    /// As Apple's: a fired trigger is let go, not cancelled; requests (`.none` included) and
    /// the subscriber's answers pass straight through.
    @Test func prefixUntilOutputPassesDemandThroughAndLetsTheFiredTriggerGo() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = TestPublisher<String, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3), onValue: { _ in .max(2) })
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        subscriber.subscription?.request(.none)
        #expect(upstream.requests == [.max(3), .none])
        #expect(upstream.send(1) == .max(2))
        _ = trigger.send("stop")
        #expect(trigger.cancelCount == 0)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func prefixUntilOutputIgnoresTriggerFailure() {
        let upstream = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<String, Failure>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
        trigger.send(completion: .failure(Failure(code: 1)))
        upstream.send(1)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
    }
}
