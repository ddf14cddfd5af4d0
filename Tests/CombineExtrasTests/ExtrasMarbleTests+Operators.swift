// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

// The flattening, timing, retrying and combining operators of CombineExtras as marbles (one
// tick = 1 s of virtual time). Cold inner publishers start their own timeline on the tick they
// are subscribed, so their `subscriptions` show when an operator subscribed and cancelled them.

@Suite("CombineExtras operators as marbles")
struct ExtrasOperatorMarbleTests {
    // MARK: flatMapLatest

    @Test func flatMapLatestCancelsThePreviousInnerWhenAValueArrives() {
        let m = MarbleTest()
        let inners = ["a": m.cold("-1-2-3|"), "b": m.cold("-4-5|")]
        let upstream = m.hot("-a---b------|")
        m.expect(upstream.flatMapLatest { inners[$0]! }, "--1-2-4-5---|")
        #expect(inners["a"]!.subscriptions == ["-^---!"])  // cancelled at b, before its 3
        #expect(inners["b"]!.subscriptions == ["-----^"])
        #expect(upstream.subscriptions == ["^"])
    }

    @Test func flatMapLatestFinishesAfterTheUpstreamAndTheLastInner() {
        let m = MarbleTest()
        let inner = m.cold("-1---2|")
        m.expect(m.hot("-a--|").flatMapLatest { _ in inner }, "--1---2|")
    }

    @Test func flatMapLatestFailsWithTheInnerAndCancelsTheUpstream() {
        let m = MarbleTest()
        let upstream = m.hot("-a-----b-|")
        m.expect(upstream.flatMapLatest { _ in m.cold("-1-#") }, "--1-#")
        #expect(upstream.subscriptions == ["^---!"])
    }

    @Test func flatMapLatestCarriesUnusedDemandToTheNextInner() {
        let m = MarbleTest()
        let inners = ["a": m.cold("-1-----2|"), "b": m.cold("-3-4-5|")]
        // Demand of three: one used by a's inner, two left for b's; b's 5 waits for demand.
        m.expect(m.hot("-a--b-----|").flatMapLatest { inners[$0]! }, "--1--3-4--------", demand: .max(3))
        #expect(inners["b"]!.requests == [.max(2)])
    }

    // MARK: concatMap

    @Test func concatMapSubscribesEachInnerWhenThePreviousFinishes() {
        let m = MarbleTest()
        let inners = ["a": m.cold("-1--2|"), "b": m.cold("-3-4|")]
        let upstream = m.hot("-a-b--------|")
        m.expect(upstream.concatMap { inners[$0]! }, "--1--2-3-4--|")
        #expect(inners["a"]!.subscriptions == ["-^"])
        #expect(inners["b"]!.subscriptions == ["------^"])  // when a's inner finished, not at b
    }

    @Test func concatMapFinishesOnlyAfterTheInnersWaitingWhenTheUpstreamFinished() {
        let m = MarbleTest()
        let inners = ["a": m.cold("--1|"), "b": m.cold("-2|")]
        m.expect(m.hot("-ab|").concatMap { inners[$0]! }, "---1-2|")
    }

    @Test func concatMapFailsWithAnInnerAndNeverSubscribesTheNext() {
        let m = MarbleTest()
        let inners = ["a": m.cold("-1-#"), "b": m.cold("-2|")]
        let upstream = m.hot("-a-b----|")
        m.expect(upstream.concatMap { inners[$0]! }, "--1-#")
        #expect(upstream.subscriptions == ["^---!"])
        #expect(inners["b"]!.subscriptions.isEmpty)
    }

    // MARK: prefix(duration:)

    @Test func prefixDurationFinishesAndCancelsTheUpstreamWhenTheTimeIsUp() {
        let m = MarbleTest()
        let upstream = m.hot("-a--b--c--d-|")
        m.expect(upstream.prefix(duration: .seconds(6), on: m.scheduler), "-a--b-|")
        #expect(upstream.subscriptions == ["^-----!"])
    }

    @Test func prefixDurationCountsFromTheSubscription() {
        let m = MarbleTest()
        let upstream = m.hot("-a--b--c--d-|")
        m.advance(ticks: 3)
        m.expect(upstream.prefix(duration: .seconds(3), on: m.scheduler), "-b-|")
        #expect(upstream.subscriptions == ["---^--!"])
    }

    @Test func prefixDurationEndsWithAnEarlierCompletionOfTheUpstream() {
        let m = MarbleTest()
        let finishing = m.hot("-a-|")
        m.expect(finishing.prefix(duration: .seconds(6), on: m.scheduler), "-a-|")
        #expect(finishing.subscriptions == ["^"])
        let m2 = MarbleTest()  // a hot marble's timeline starts at time zero: a new clock
        m2.expect(m2.hot("-----a#").prefix(duration: .seconds(6), on: m2.scheduler), "-----a#")
    }

    // MARK: interval

    @Test func intervalCountsOnePeriodAfterAnotherWithinTheDemand() {
        let m = MarbleTest()
        let numbers = ["a": 0, "b": 1, "c": 2]
        m.expect(
            Publishers.interval(.seconds(2), scheduler: m.scheduler), "--a-b-c---------", values: numbers,
            demand: .max(3))
        #expect(m.scheduler.pendingActionCount == 0)  // cancelled when the check ended
    }

    @Test func intervalSkipsTicksWithoutDemandAndKeepsItsNumbersConsecutive() {
        let m = MarbleTest()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.interval(.seconds(2), scheduler: m.scheduler).subscribe(subscriber)
        m.advance(ticks: 5)  // 0 at tick 2; tick 4 finds no demand
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        m.advance(ticks: 0)
        #expect(subscriber.values == [0])  // nothing until the next period (tick 6)
        m.advance(ticks: 1)
        #expect(subscriber.values == [0, 1])
        subscriber.cancel()
        #expect(m.scheduler.pendingActionCount == 0)
    }

    @Test func intervalStartsCountingAtEachSubscription() {
        let m = MarbleTest()
        let interval = Publishers.interval(.seconds(3), scheduler: m.scheduler)
        m.advance(ticks: 4)
        m.expect(interval, "---a--b", values: ["a": 0, "b": 1], demand: .max(2))
    }

    // MARK: retry(_:when:)

    @Test func retryWhenResubscribesWhenTheTriggerPublishes() {
        let m = MarbleTest()
        let upstream = m.cold("-a-#")
        let trigger = m.cold("--t")
        m.expect(upstream.retry(1) { _ in trigger }, "-a----a-#")
        #expect(upstream.subscriptions == ["^", "-----^"])  // each attempt ended by its failure
        #expect(trigger.subscriptions == ["---^-!"])  // its value starts the retry and cancels it
    }

    @Test func retryWhenPublishesTheAttemptThatSucceeds() {
        let m = MarbleTest()
        let attempts = [m.cold("-a-#"), m.cold("--b|")]
        let count = Counter()
        let upstream = Deferred { attempts[count.next()] }
        let trigger = m.cold("--t")
        m.expect(upstream.retry(3) { _ in trigger }, "-a-----b|")
        #expect(attempts.map(\.subscriptions) == [["^"], ["-----^"]])
    }

    @Test func retryWhenForwardsTheFailureWhenTheTriggerFinishesOrFails() {
        let m = MarbleTest()
        m.expect(m.cold("-a-#").retry(1) { _ in m.cold("--|") }, "-a---#")
        let m2 = MarbleTest()
        // The trigger's own failure is not forwarded: the upstream's is.
        m2.expect(m2.cold("-a-#").retry(1) { _ in m2.cold("-#", error: MarbleError("trigger")) }, "-a--#")
    }

    @Test func retryWhenCancelsTheWaitingTrigger() {
        let m = MarbleTest()
        let upstream = m.cold("-a-#")
        let trigger = m.cold("-----t")
        let recording = m.record(upstream.retry(1) { _ in trigger }, ticks: 5)
        #expect(recording.marble() == "-a---")
        #expect(trigger.subscriptions == ["---^!"])
        #expect(upstream.subscriptions == ["^"])
    }

    @Test func retryWhenCarriesTheUnusedDemandToTheNextAttempt() {
        let m = MarbleTest()
        let upstream = m.cold("-a-b-#")
        m.expect(upstream.retry(1) { _ in m.cold("-t") }, "-a-b---a-------", demand: .max(3))
        #expect(upstream.requests == [.max(3), .max(1)])  // one value of the three was left
    }

    // MARK: materialize and dematerialize

    @Test func materializePublishesTheEventsAsValuesAndNeverFails() {
        let m = MarbleTest()
        let events: [String: Event<String, MarbleError>] = [
            "a": .value("a"), "b": .value("b"), "f": .failure(MarbleError()), "e": .finished,
        ]
        m.expect(m.hot("-a-b-#").materialize(), "-a-b-[f|]", values: events)
        let m2 = MarbleTest()
        m2.expect(m2.hot("-a-|").materialize(), "-a-[e|]", values: events)
    }

    @Test func materializeHoldsTheLastEventForDemand() {
        let m = MarbleTest()
        let events: [String: Event<String, MarbleError>] = ["a": .value("a"), "b": .value("b")]
        m.expect(m.cold("-a-b|").materialize(), "-a-b-----", values: events, demand: .max(2))
    }

    @Test func dematerializeEndsWithATerminalEventAndCancelsTheUpstream() {
        let m = MarbleTest()
        let events: [String: Event<String, MarbleError>] = [
            "a": .value("a"), "b": .value("b"), "c": .value("c"), "f": .failure(MarbleError()), "e": .finished,
        ]
        let failing = m.hot("-a-b-f-c|", values: events)
        m.expect(failing.dematerialize(), "-a-b-#")
        #expect(failing.subscriptions == ["^----!"])
        let m2 = MarbleTest()
        let finishing = m2.hot("-a-e--c|", values: events)
        m2.expect(finishing.dematerialize(), "-a-|")
        #expect(finishing.subscriptions == ["^--!"])
    }

    @Test func materializeThenDematerializeGivesBackTheUpstream() {
        let m = MarbleTest()
        m.expect(m.hot("-a-b--c-#").materialize().dematerialize(), "-a-b--c-#")
        m.expect(m.cold("a--b-|").materialize().dematerialize(), "a--b-|")
    }

    // MARK: pairwise

    @Test func pairwisePairsEachValueWithThePreviousOne() {
        let m = MarbleTest()
        m.expect(m.hot("-a-b--c-|").pairwise().map { $0 + $1 }, "---'ab'--'bc'-|")
        let m2 = MarbleTest()
        m2.expect(m2.hot("-a--#").pairwise().map { $0 + $1 }, "----#")
    }

    @Test func pairwiseAsksForAnotherValueInPlaceOfTheFirst() {
        let m = MarbleTest()
        let upstream = m.cold("a-b-c-d|")
        // One pair asked for, one value requested: the first value makes no pair, so it is
        // answered with a request for one more (b comes although a used the only demand).
        m.expect(upstream.pairwise().map { $0 + $1 }, "--'ab'-------", demand: .max(1))
        #expect(upstream.requests == [.max(1)])
    }

    // MARK: Collection.merge(), zip(), combineLatest()

    @Test func mergeOfACollectionInterleavesAndFinishesWithTheLast() {
        let m = MarbleTest()
        m.expect([m.hot("-a---c---|"), m.hot("---b---d|")].merge(), "-a-b-c-d-|")
    }

    @Test func mergeOfACollectionFailsWithTheFirstFailureAndCancelsTheOthers() {
        let m = MarbleTest()
        let others = [m.hot("--b---c|"), m.hot("-------d|")]
        m.expect(([m.hot("-a--#")] + others).merge(), "-ab-#")
        #expect(others.map(\.subscriptions) == [["^---!"], ["^---!"]])
    }

    @Test func zipOfACollectionFinishesWhenAFinishedPublisherHasNothingLeftToPair() {
        let m = MarbleTest()
        let letters = m.hot("-a-b------|")
        let digits = m.hot("--1---2|")
        m.expect([letters, digits].zip().map { $0.joined() }, "--'a1'---'b2'|")
        #expect(letters.subscriptions == ["^------!"])
        #expect(digits.subscriptions == ["^"])
    }

    @Test func zipOfACollectionPairsTheValuesLeftByAFinishedPublisher() {
        let m = MarbleTest()
        let letters = m.hot("-a-b|")
        let digits = m.hot("---1---2-3|")
        m.expect([letters, digits].zip().map { $0.joined() }, "---'a1'---['b2'|]")
        #expect(digits.subscriptions == ["^------!"])
    }

    @Test func zipWithOthersPutsThisPublishersValuesFirst() {
        let m = MarbleTest()
        let (a, b, c) = (m.hot("-1---2---|"), m.hot("--x---y--|"), m.hot("---p---q-|"))
        m.expect(a.zip(with: b, c).map { $0.joined() }, "---'1xp'---'2yq'-|")
        let m2 = MarbleTest()
        let (d, e) = (m2.hot("-1---2|"), m2.hot("--x-------y|"))
        m2.expect(d.zip(with: [e]).map { $0.joined() }, "--'1x'-------['2y'|]")
    }

    @Test func combineLatestWithOthersPutsThisPublishersValuesFirst() {
        let m = MarbleTest()
        let (a, b, c) = (m.hot("-1-----2----|"), m.hot("--x---------|"), m.hot("---p----q---|"))
        m.expect(a.combineLatest(with: b, c).map { $0.joined() }, "---'1xp'---'2xp''2xq'---|")
        let m2 = MarbleTest()
        let (d, e) = (m2.hot("-1--|"), m2.hot("--x---y|"))
        m2.expect(d.combineLatest(with: [e]).map { $0.joined() }, "--'1x'---'1y'|")
    }

    @Test func combineLatestOfACollectionCombinesTheLatestAndFinishesWithTheLast() {
        let m = MarbleTest()
        let sources = [m.hot("-a---b----|"), m.hot("---1----2-|"), m.hot("--x-------|")]
        m.expect(sources.combineLatest().map { $0.joined() }, "---'a1x'-'b1x'--'b2x'-|")
    }

    @Test func combineLatestOfACollectionWaitsForAllWhenOneFinishesWithoutAValue() {
        let m = MarbleTest()
        let running = m.hot("-a-----b--|")
        let empty = m.hot("--|")
        m.expect([running, empty].combineLatest().map { $0.joined() }, "----------|")
        #expect(running.subscriptions == ["^"])  // not cancelled: it finished on its own
    }

    @Test func combineLatestOfACollectionFailsAtOnceAndCancelsTheOthers() {
        let m = MarbleTest()
        let other = m.hot("-a---b---|")
        m.expect([other, m.hot("--1-#")].combineLatest().map { $0.joined() }, "--'a1'-#")
        #expect(other.subscriptions == ["^---!"])
    }
}

/// Hands out 0, 1, 2, … to a `Deferred` that picks the publisher of each attempt.
private final class Counter: @unchecked Sendable {
    private var value = 0

    func next() -> Int {
        defer { value += 1 }
        return value
    }
}
