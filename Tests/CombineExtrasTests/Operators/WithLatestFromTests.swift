// SPDX-License-Identifier: Apache-2.0
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

    @Test func theOthersFailureOnAnotherThreadNeverOverlapsAValue() async {
        await offThePool {
            for _ in 0..<100 {
                let upstream = PassthroughSubject<Int, ProbeError>()
                let other = CurrentValueSubject<Int, ProbeError>(0)
                let subscriber = TestSubscriber<Int, ProbeError>()
                upstream.withLatestFrom(other) { $0 + $1 }.subscribe(subscriber)
                runOverlapping(threads: 2) { side in
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

/// One of the forms of `withLatestFrom` over two or three other publishers, made into a
/// publisher of strings: the latest values joined (`"1020"`), after `"upstream:"` when the
/// form has a selector.
private struct ManyOthersForm: Sendable, CustomTestStringConvertible {
    typealias Source = TestPublisher<Int, ProbeError>

    let testDescription: String
    let otherCount: Int
    let hasSelector: Bool
    let make: @Sendable (Source, [Source]) -> AnyPublisher<String, ProbeError>

    /// What the form publishes for `upstream` with the latest values `latest`.
    func output(_ upstream: Int, _ latest: [Int]) -> String {
        let joined = latest.map(String.init).joined()
        return hasSelector ? "\(upstream):\(joined)" : joined
    }

    static let all: [ManyOthersForm] = [
        ManyOthersForm(testDescription: "withLatestFrom(_:_:)", otherCount: 2, hasSelector: false) { upstream, others in
            upstream.withLatestFrom(others[0], others[1]).map { "\($0.0)\($0.1)" }.eraseToAnyPublisher()
        },
        ManyOthersForm(testDescription: "withLatestFrom(_:_:resultSelector:)", otherCount: 2, hasSelector: true) {
            upstream, others in
            upstream.withLatestFrom(others[0], others[1]) { "\($0):\($1.0)\($1.1)" }.eraseToAnyPublisher()
        },
        ManyOthersForm(testDescription: "withLatestFrom(_:_:_:)", otherCount: 3, hasSelector: false) {
            upstream, others in
            upstream.withLatestFrom(others[0], others[1], others[2]).map { "\($0.0)\($0.1)\($0.2)" }
                .eraseToAnyPublisher()
        },
        ManyOthersForm(testDescription: "withLatestFrom(_:_:_:resultSelector:)", otherCount: 3, hasSelector: true) {
            upstream, others in
            upstream.withLatestFrom(others[0], others[1], others[2]) { "\($0):\($1.0)\($1.1)\($1.2)" }
                .eraseToAnyPublisher()
        },
    ]
}

@Suite("withLatestFrom of two and three others: completion, failure, cancel and demand")
struct WithLatestFromManyOthersTests {
    typealias Source = TestPublisher<Int, ProbeError>

    private struct Rig {
        let upstream = Source()
        let others: [Source]
        let subscriber: TestSubscriber<String, ProbeError>

        init(_ form: ManyOthersForm, demand: Subscribers.Demand = .unlimited) {
            others = (0..<form.otherCount).map { _ in Source() }
            subscriber = TestSubscriber(initialDemand: demand)
            form.make(upstream, others).subscribe(subscriber)
        }

        /// Sends `10 * (i + 1) + round` from each other publisher `i`; returns the values sent.
        @discardableResult
        func sendFromEachOther(round: Int = 0) -> [Int] {
            others.indices.map { index in
                let value = 10 * (index + 1) + round
                others[index].send(value)
                return value
            }
        }
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func finishesWithTheUpstreamOnlyAndKeepsTheLatestOfFinishedOthers(_ form: ManyOthersForm) {
        let rig = Rig(form)
        let latest = rig.sendFromEachOther()
        rig.upstream.send(1)
        for other in rig.others { other.send(completion: .finished) }
        rig.upstream.send(2)
        #expect(rig.subscriber.completion == nil)
        rig.upstream.send(completion: .finished)
        #expect(
            rig.subscriber.events == [
                .subscription, .value(form.output(1, latest)), .value(form.output(2, latest)),
                .completion(.finished),
            ])
        #expect(rig.subscriber.violations == [])
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func theUpstreamsCompletionCancelsEveryOther(_ form: ManyOthersForm) {
        let rig = Rig(form)
        rig.sendFromEachOther()
        rig.upstream.send(completion: .finished)
        #expect(rig.others.map(\.cancelCount) == Array(repeating: 1, count: form.otherCount))
        rig.sendFromEachOther(round: 1)
        #expect(rig.subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func anyOthersFailureFailsTheResultAndCancelsTheRest(_ form: ManyOthersForm) {
        for failing in 0..<form.otherCount {
            let rig = Rig(form)
            rig.sendFromEachOther()
            rig.others[failing].send(completion: .failure(ProbeError(code: failing)))
            #expect(rig.upstream.cancelCount == 1)
            for index in rig.others.indices where index != failing {
                #expect(rig.others[index].cancelCount == 1, "other \(index) when \(failing) fails")
            }
            rig.upstream.send(1)
            #expect(rig.subscriber.events == [.subscription, .completion(.failure(ProbeError(code: failing)))])
        }
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func theUpstreamsFailureFailsTheResultAndCancelsTheOthers(_ form: ManyOthersForm) {
        let rig = Rig(form)
        let latest = rig.sendFromEachOther()
        rig.upstream.send(1)
        rig.upstream.send(completion: .failure(ProbeError(code: 9)))
        #expect(rig.others.map(\.cancelCount) == Array(repeating: 1, count: form.otherCount))
        #expect(
            rig.subscriber.events == [
                .subscription, .value(form.output(1, latest)), .completion(.failure(ProbeError(code: 9))),
            ])
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func cancelCancelsTheUpstreamAndEveryOtherOnce(_ form: ManyOthersForm) {
        let rig = Rig(form)
        let latest = rig.sendFromEachOther()
        rig.upstream.send(1)
        rig.subscriber.cancel()
        rig.subscriber.cancel()
        #expect(rig.upstream.cancelCount == 1)
        #expect(rig.others.map(\.cancelCount) == Array(repeating: 1, count: form.otherCount))
        rig.sendFromEachOther(round: 1)
        rig.upstream.send(2)
        #expect(rig.subscriber.events == [.subscription, .value(form.output(1, latest))])
    }

    @Test(arguments: ManyOthersForm.all)
    fileprivate func theOthersAreAskedForEverythingAndTheUpstreamForTheSubscribersDemand(_ form: ManyOthersForm) {
        let rig = Rig(form, demand: .max(2))
        #expect(rig.others.map(\.requests) == Array(repeating: [.unlimited], count: form.otherCount))
        #expect(rig.upstream.requests == [.max(2)])
        // Until every other has a value, an upstream value is dropped and replaced.
        rig.others[0].send(10)
        #expect(rig.upstream.send(1) == .max(1))
        let latest = rig.sendFromEachOther()
        #expect(rig.upstream.send(2) == .none)
        rig.upstream.send(3)
        #expect(rig.subscriber.values == [form.output(2, latest), form.output(3, latest)])
        #expect(rig.subscriber.outstandingDemand == .none)
        rig.subscriber.request(.max(3))
        #expect(rig.upstream.requests == [.max(2), .max(3)])
        rig.upstream.send(4)
        #expect(rig.subscriber.values.last == form.output(4, latest))
        #expect(rig.subscriber.violations == [])
    }
}
