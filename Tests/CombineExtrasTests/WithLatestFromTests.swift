import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("withLatestFrom: each upstream value with the latest of the others")
struct WithLatestFromTests {
    typealias Source<Output> = TestPublisher<Output, ProbeError>

    @Test func combinesEachValueWithTheLatestOfTheOtherAndDropsTheEarlyOnes() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let other = PassthroughSubject<String, ProbeError>()
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
        upstream.send(1)  // no latest value yet: dropped
        other.send("a")
        upstream.send(2)
        upstream.send(3)
        other.send("b")
        other.send("c")
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(
            subscriber.events == [.subscription, .value("2a"), .value("3a"), .value("4c"), .completion(.finished)])
    }

    @Test func withoutASelectorItGivesTheOthersValue() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let other = CurrentValueSubject<String, ProbeError>("x")
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        upstream.send(1)
        other.send("y")
        upstream.send(2)
        #expect(subscriber.values == ["x", "y"])
    }

    @Test func twoOthersGiveATupleOnceBothHaveAValue() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let (a, b) = (PassthroughSubject<String, ProbeError>(), PassthroughSubject<Double, ProbeError>())
        let tuples = TestSubscriber<String, ProbeError>()
        let selected = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(a, b).map { "\($0.0)\($0.1)" }.subscribe(tuples)
        upstream.withLatestFrom(a, b) { "\($0)\($1.0)\($1.1)" }.subscribe(selected)
        a.send("a")
        upstream.send(1)  // b has no value yet: dropped
        b.send(0.5)
        upstream.send(2)
        a.send("z")
        upstream.send(3)
        #expect(tuples.values == ["a0.5", "z0.5"])
        #expect(selected.values == ["2a0.5", "3z0.5"])
    }

    @Test func threeOthersGiveATupleOnceAllHaveAValue() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let a = CurrentValueSubject<Int, ProbeError>(10)
        let b = CurrentValueSubject<Int, ProbeError>(20)
        let c = PassthroughSubject<Int, ProbeError>()
        let tuples = TestSubscriber<[Int], ProbeError>()
        let selected = TestSubscriber<Int, ProbeError>()
        upstream.withLatestFrom(a, b, c).map { [$0.0, $0.1, $0.2] }.subscribe(tuples)
        upstream.withLatestFrom(a, b, c) { $0 + $1.0 + $1.1 + $1.2 }.subscribe(selected)
        upstream.send(1)
        c.send(30)
        upstream.send(2)
        b.send(21)
        upstream.send(3)
        #expect(tuples.values == [[10, 20, 30], [10, 21, 30]])
        #expect(selected.values == [62, 64])
    }

    @Test func theOtherIsAskedForEverythingAndTheUpstreamForTheSubscribersDemand() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>(initialDemand: .max(2))
        upstream.withLatestFrom(other).subscribe(subscriber)
        #expect(other.requests == [.unlimited])
        #expect(upstream.requests == [.max(2)])
        subscriber.request(.max(3))
        #expect(upstream.requests == [.max(2), .max(3)])
    }

    @Test func aDroppedValueIsReplacedSoTheDemandIsNotUsedUp() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>(initialDemand: .max(2))
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        other.send("a")
        #expect(upstream.send(2) == .none)
        upstream.send(3)
        upstream.send(4)  // beyond the demand (a misbehaving upstream): held back
        #expect(subscriber.values == ["2a", "3a"])
        subscriber.request(.max(1))
        #expect(subscriber.values == ["2a", "3a", "4a"])
        #expect(subscriber.violations == [])
    }

    @Test func demandReturnedFromReceiveGoesUpstream() {
        let upstream = Source<Int>()
        let other = Source<Int>()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .max(1), onValue: { _ in .max(4) })
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send(0)
        #expect(upstream.send(1) == .max(4))
    }

    @Test func theOtherFinishingDoesNotFinishTheResult() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("a")
        other.send(completion: .finished)
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .value("a")])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("a"), .completion(.finished)])
    }

    @Test func theOthersFailureFailsTheResultAndCancelsTheUpstream() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send(completion: .failure(ProbeError(code: 2)))
        #expect(upstream.cancelCount == 1)
        upstream.send(1)
        #expect(subscriber.events == [.subscription, .completion(.failure(ProbeError(code: 2)))])
    }

    @Test func theUpstreamsCompletionEndsTheResultAndCancelsTheOther() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        upstream.send(completion: .failure(ProbeError(code: 5)))
        #expect(other.cancelCount == 1)
        other.send("late")
        #expect(subscriber.events == [.subscription, .completion(.failure(ProbeError(code: 5)))])
    }

    @Test func anOtherThatFailsAtOnceMeansTheUpstreamIsNeverSubscribed() {
        let upstream = Source<Int>()
        let subscriber = TestSubscriber<Int, ProbeError>()
        upstream.withLatestFrom(Fail<Int, ProbeError>(error: ProbeError(code: 1))).subscribe(subscriber)
        #expect(upstream.subscriptionCount == 0)
        #expect(subscriber.events == [.subscription, .completion(.failure(ProbeError(code: 1)))])
    }

    @Test func cancelCancelsBothAndStopsEverything() {
        let upstream = Source<Int>()
        let other = Source<String>()
        let subscriber = TestSubscriber<String, ProbeError>()
        upstream.withLatestFrom(other).subscribe(subscriber)
        other.send("a")
        upstream.send(1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(other.cancelCount == 1)
        #expect(subscriber.values == ["a"])
    }

    @Test func theOthersFailureOnAnotherThreadNeverOverlapsAValue() {
        for _ in 0..<100 {
            let upstream = PassthroughSubject<Int, ProbeError>()
            let other = CurrentValueSubject<Int, ProbeError>(0)
            let subscriber = TestSubscriber<Int, ProbeError>()
            upstream.withLatestFrom(other) { $0 + $1 }.subscribe(subscriber)
            onManyThreads(2) { side in
                if side == 0 {
                    for value in 1...200 { upstream.send(value) }
                } else {
                    other.send(completion: .failure(ProbeError(code: 1)))
                }
            }
            #expect(subscriber.completion == .failure(ProbeError(code: 1)))
            let values = subscriber.values  // none when the failure came first
            #expect(values == (0..<values.count).map { $0 + 1 })
            #expect(subscriber.violations == [])
        }
    }

    @Test(arguments: [false, true])
    func theSelectorAndSubscriberAreReleasedAfterTheEnd(_ byCancel: Bool) {
        let upstream = Source<Int>()
        let other = Source<Int>()
        expectReleasedAfterEnd(
            byCancel: byCancel,
            attach: { subscriber, probe in
                upstream.withLatestFrom(other) { probe.pass($0 + $1) }.subscribe(subscriber)
            },
            drive: {
                other.send(1)
                upstream.send(1)
            },
            complete: { upstream.send(completion: .finished) })
        #expect(!upstream.hasSubscriber)
        #expect(!other.hasSubscriber)
    }

    /// A failure of the upstream, or of the other publisher.
    @Test(arguments: [false, true])
    func theSelectorAndSubscriberAreReleasedAfterAFailure(_ theOtherFails: Bool) {
        let upstream = Source<Int>()
        let other = Source<Int>()
        expectReleasedAfterEnd(
            byCancel: false,
            failing: true,
            attach: { subscriber, probe in
                upstream.withLatestFrom(other) { probe.pass($0 + $1) }.subscribe(subscriber)
            },
            drive: {
                other.send(1)
                upstream.send(1)
            },
            complete: { (theOtherFails ? other : upstream).send(completion: .failure(ProbeError(code: 1))) })
        #expect(!upstream.hasSubscriber)
        #expect(!other.hasSubscriber)
        #expect((theOtherFails ? upstream : other).cancelCount == 1)
    }
}
