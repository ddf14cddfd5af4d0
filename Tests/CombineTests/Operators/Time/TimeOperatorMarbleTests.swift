// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// The time operators again, written as marbles (one tick = 1 s). Each expectation is the
// behaviour the tests beside it pin down tick by tick.

extension DebounceTests {
    @Test func marblesAValueComesOutAfterTwoQuietTicks() {
        let m = MarbleTest()
        let source = m.hot("-a-b-----c--|")
        m.expect(source.debounce(for: .seconds(2), scheduler: m.scheduler), "-----b-----c|")
        #expect(source.subscriptions == ["^"])
    }

    @Test func marblesTheUpstreamsCompletionDropsTheWaitingValue() {
        let m = MarbleTest()
        m.expect(m.hot("-a-b|").debounce(for: .seconds(2), scheduler: m.scheduler), "----|")
    }

    @Test func marblesTheUpstreamsFailureDropsTheWaitingValue() {
        let m = MarbleTest()
        m.expect(m.hot("-a-#").debounce(for: .seconds(2), scheduler: m.scheduler), "---#")
    }

    @Test func marblesAValueDueWithoutDemandIsDropped() {
        let m = MarbleTest()
        let debounced = m.hot("-a---b---|").debounce(for: .seconds(2), scheduler: m.scheduler)
        m.expect(debounced, "---a-----|", demand: .max(1))
    }
}

extension ThrottleTests {
    @Test(arguments: [(true, "a---c---d---f--|"), (false, "a---b---d---e--|")])
    func marblesOneValuePerInterval(latest: Bool, expected: String) {
        let m = MarbleTest()
        let source = m.hot("ab-c----d-ef---|")
        m.expect(source.throttle(for: .seconds(4), scheduler: m.scheduler, latest: latest), expected)
    }

    @Test(arguments: [(true, "|"), (false, "|"), (true, "#"), (false, "#")])
    func marblesACompletionWaitsForTheValueBeforeIt(latest: Bool, completion: String) {
        let m = MarbleTest()
        let source = m.hot("ab" + completion)
        m.expect(source.throttle(for: .seconds(4), scheduler: m.scheduler, latest: latest), "a---[b\(completion)]")
    }
}

extension DelayTests {
    @Test func marblesEveryEventComesTheIntervalLater() {
        let m = MarbleTest()
        m.expect(m.hot("-a--b|").delay(for: .seconds(2), scheduler: m.scheduler), "---a--b|")
        m.expect(m.cold("[ab]-c#").delay(for: .seconds(2), scheduler: m.scheduler), "--[ab]-c#")
    }
}

extension TimeoutTests {
    @Test func marblesSilenceForTheIntervalFinishesAndCancelsTheUpstream() {
        let m = MarbleTest()
        let source = m.hot("-a-b-c")
        m.expect(source.timeout(.seconds(3), scheduler: m.scheduler), "-a-b-c--|")
        #expect(source.subscriptions == ["^-------!"])
    }

    @Test func marblesTheCustomErrorIsTheFailureOnTimeout() {
        let m = MarbleTest()
        let source = m.hot("-a")
        let timed = source.timeout(.seconds(2), scheduler: m.scheduler, customError: { MarbleError("timeout") })
        m.expect(timed, "-a-#", error: MarbleError("timeout"))
        #expect(source.subscriptions == ["^--!"])
    }

    @Test(arguments: ["-a-|", "-a-#", "-a-b--c--|"])
    func marblesTheUpstreamsEventsPassWithinTheInterval(marble: String) {
        let m = MarbleTest()
        let source = m.hot(marble)
        m.expect(source.timeout(.seconds(3), scheduler: m.scheduler), marble)
        #expect(source.subscriptions == ["^"])
    }
}
