// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

// CombineExtras' operators as marbles (one tick = 1 s on a virtual-time scheduler). `hot`
// sources play on the test's clock; each `subscriptions` entry draws when a source was
// subscribed (`^`) and cancelled (`!`).

@Suite("CombineExtras as marbles")
struct ExtrasMarbleTests {
    // MARK: amb

    @Test func ambMirrorsTheFirstToEmitAndCancelsTheOther() {
        let m = MarbleTest()
        let slow = m.hot("-----1---2---|")
        let fast = m.hot("---a---b-----|")
        m.expect(slow.amb(fast), "---a---b-----|")
        #expect(slow.subscriptions == ["^--!"])
        #expect(fast.subscriptions == ["^"])
    }

    @Test func ambCountsACompletionAsSpeakingFirst() {
        let m = MarbleTest()
        let empty = m.hot("--|")
        let late = m.hot("----a-|")
        m.expect(empty.amb(late), "--|")
        #expect(late.subscriptions == ["^-!"])
    }

    @Test func ambOfACollectionMirrorsTheWinnerAmongMany() {
        let m = MarbleTest()
        let sources = [m.hot("------a-|"), m.hot("---b---c|"), m.hot("----d---|")]
        m.expect(sources.amb(), "---b---c|")
        #expect(sources.map(\.subscriptions) == [["^--!"], ["^"], ["^--!"]])
    }

    @Test func ambFailsWhenTheFirstEventIsAFailure() {
        let m = MarbleTest()
        let failing = m.hot("--#")
        let other = m.hot("---a|")
        m.expect(failing.amb(other), "--#")
        #expect(other.subscriptions == ["^-!"])
    }

    @Test func ambWinnersValuesWaitForDemand() {
        let m = MarbleTest()
        // The race asks each contender for one value: the winner's first value is delivered
        // within the subscriber's demand of one; the rest of a hot source is missed.
        let winner = m.cold("-a-b-c|")
        let loser = m.cold("---x|")
        m.expect(winner.amb(loser), "-a-----", demand: .max(1))
    }

    // MARK: withLatestFrom

    @Test func withLatestFromPairsEachValueWithTheOthersLatest() {
        let m = MarbleTest()
        let upstream = m.hot("--a---b--c---|")
        let other = m.hot("-x---y-------|")
        m.expect(upstream.withLatestFrom(other) { $0 + $1 }, "--'ax'---'by'--'cy'---|")
    }

    @Test func withLatestFromDropsValuesBeforeTheOtherHasOne() {
        let m = MarbleTest()
        let upstream = m.hot("-a--b-|")
        let other = m.hot("--x----")
        m.expect(upstream.withLatestFrom(other) { $0 + $1 }, "----'bx'-|")
    }

    @Test func withLatestFromIgnoresTheOthersFinishButNotItsFailure() {
        let m = MarbleTest()
        let finishingOther = m.hot("-x-|")
        m.expect(m.hot("--a---b|").withLatestFrom(finishingOther), "--x---x|")

        let m2 = MarbleTest()
        let failingOther = m2.hot("-x--#")
        m2.expect(m2.hot("--a----b|").withLatestFrom(failingOther) { $0 + $1 }, "--'ax'-#")
    }

    @Test func withLatestFromTwoAndThreeOthers() {
        let m = MarbleTest()
        let upstream = m.hot("---a---b-|")
        let first = m.hot("-1----2---")
        let second = m.hot("--p-------")
        m.expect(upstream.withLatestFrom(first, second) { $0 + $1.0 + $1.1 }, "---'a1p'---'b2p'-|")

        let m2 = MarbleTest()
        let up2 = m2.hot("---a---b-|")
        let (f2, s2, t2) = (m2.hot("-1----2---"), m2.hot("--p-------"), m2.hot("q-----r---"))
        m2.expect(up2.withLatestFrom(f2, s2, t2) { $0 + $1.0 + $1.1 + $1.2 }, "---'a1pq'---'b2pr'-|")
    }

    // MARK: create and share(replay:)

    @Test func createHoldsValuesUntilTheyAreRequested() {
        let m = MarbleTest()
        let created = AnyPublisher<String, MarbleError>.create { subscriber in
            subscriber.send("a")
            subscriber.send("b")
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        // Everything is sent at once, on subscription; demand of one lets only `a` through.
        m.expect(created, "a---", demand: .max(1))
        m.expect(created, "[ab|]")
    }

    @Test func shareReplayGivesALateSubscriberTheLatestValuesAcrossAReconnection() {
        let m = MarbleTest()
        let source = m.hot("-a-b-c---|")
        let shared = source.share(replay: 2)
        // The first subscriber watches ticks 0 to 3 and leaves: the upstream is cancelled.
        let early = m.record(shared, ticks: 4)
        #expect(early.marble() == "-a-b")
        // The next one, at tick 3, gets a and b replayed at once and reconnects the upstream:
        // c is live (drawn from its own subscription tick).
        m.expect(shared, "[ab]-c---|")
        #expect(source.subscriptions == ["^--!", "---^"])
    }
}
