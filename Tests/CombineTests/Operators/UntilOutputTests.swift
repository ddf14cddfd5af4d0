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
        #expect(trigger.cancelCount == 1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func droppedValuesAreReplacedUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.drop(untilOutputFrom: trigger).subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        trigger.send(())
        #expect(upstream.send(2) == .none)
        #expect(subscriber.values == [2])
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
