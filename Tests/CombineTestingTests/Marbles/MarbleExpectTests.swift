// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import TestSupport
import Testing

@Suite("MarbleTest.expect")
struct MarbleExpectTests {
    @Test func aMatchingPublisherPasses() {
        let m = MarbleTest()
        m.expect(m.cold("-a-[bc]'de'|"), "-a-[bc]'de'|")
    }

    @Test func anExpectationMayBeAlignedUnderItsSourceWithSpacesAndACaret() {
        let m = MarbleTest()
        let source = m.hot("-a-^-b-c|")
        m.expect(source.filter { $0 != "b" }, "   ^---c|")
    }

    @Test func typedValuesAndErrorsAreComparedByValue() {
        let m = MarbleTest()
        let source = m.hot("-a-b-#", values: ["a": 1, "b": 2], error: CoreTestError(code: 9))
        m.expect(source.map { $0 * 10 }, "-x-y-#", values: ["x": 10, "y": 20], error: CoreTestError(code: 9))
    }

    @Test func aPublisherThatCannotFailNeedsNoError() {
        let m = MarbleTest()
        m.expect(m.cold("a-b|", values: ["a": 1, "b": 2]).map { $0 + 1 }, "x-y|", values: ["x": 2, "y": 3])
    }

    @Test func aHashExpectsMarbleErrorByDefaultOrTheErrorGiven() {
        let m = MarbleTest()
        m.expect(m.hot("-a-#"), "-a-#")
        m.expect(m.cold("#", error: MarbleError("x")), "#", error: MarbleError("x"))
    }

    @Test func demandIsRequestedOnceOnSubscription() {
        let m = MarbleTest()
        let hot = m.hot("a-b-c|")
        let cold = m.cold("a-b-c|")
        m.expect(hot, "a----|", demand: .max(1))  // b and c are missed; the completion needs no demand
        #expect(hot.requests == [.max(1)])
        m.expect(cold, "a", demand: .max(1))
        #expect(cold.subscriptions == ["--------^--!"])  // from tick 8, watched 1 + 3 ticks, then cancelled
    }

    @Test func theSubscriptionIsCancelledAfterTheLastTickUnlessThePublisherCompleted() {
        let m = MarbleTest()
        let endless = m.hot("-a")
        m.expect(endless, "-a-")
        #expect(endless.subscriptions == ["^----!"])
        let finite = m.cold("a|")
        m.expect(finite, "a|")
        #expect(finite.subscriptions == ["-----^"])
    }

    @Test func aMismatchIsOneIssueDrawingBothLinesWithACaretAtTheFirstDifference() {
        let m = MarbleTest()
        let issues = reportedIssues { m.expect(m.cold("--a---b-|"), "--a--b--|") }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: --a--b--|
                  actual:   --a---b-|
                                 ^ first difference at tick 5
                """
            ])
    }

    @Test func groupsAndLongNamesAreAlignedTickUnderTick() {
        let m = MarbleTest()
        let issues = reportedIssues { m.expect(m.cold("-a-b'cd'|"), "-[ab]-'cd'|") }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: -[ab]-'cd'|
                  actual:   -a   -b   'cd'|
                             ^ first difference at tick 1
                """
            ])
    }

    @Test func theCaretColumnIsKeptWhenTheExpectationHasOne() {
        let m = MarbleTest()
        let source = m.hot("-a-^-b-c|")
        let issues = reportedIssues { m.expect(source, "---^-b--c|") }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: ---^-b--c|
                  actual:   ---^-b-c|
                                   ^ first difference at tick 4
                """
            ])
    }

    @Test func aLateEventAfterTheExpectedMarbleIsAMismatch() {
        let m = MarbleTest()
        let issues = reportedIssues { m.expect(m.cold("a----b"), "a--") }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: a--
                  actual:   a----b
                                 ^ first difference at tick 5
                """
            ])
    }

    @Test func eventsThatDrawAlikeAreSpelledOut() {
        let m = MarbleTest()
        let issues = reportedIssues {
            m.expect(m.cold("-#", error: MarbleError("lost")), "-#", error: MarbleError("timeout"))
        }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: -#
                  actual:   -#
                             ^ first difference at tick 1
                  at tick 1: expected failure MarbleError(timeout), got failure MarbleError(lost)
                """
            ])
    }

    @Test func actualValuesAreDrawnByTheirNameInValuesOrElseByTheirDescription() {
        let m = MarbleTest()
        let source = m.cold("a-b-c|", values: ["a": 1, "b": 2, "c": 30])
        let issues = reportedIssues { m.expect(source.map { $0 * $0 }, "a-x-y|", values: ["a": 1, "x": 4, "y": 8]) }
        #expect(
            issues == [
                """
                marble mismatch:
                  expected: a-x-y    |
                  actual:   a-x-'900'|
                                ^ first difference at tick 4
                """
            ])
    }

    @Test func aMalformedExpectationIsOneIssueAndSubscribesNothing() {
        let m = MarbleTest()
        let source = m.cold("a|")
        let issues = reportedIssues { m.expect(source, "a|b") }
        #expect(
            issues == [
                "marble syntax error at column 3: event b after the completion at column 2: nothing happens after '|' or '#'\n  a|b\n    ^"
            ])
        #expect(source.subscriptions == [])
    }

    @Test func anExpectationWithEventsBeforeItsCaretIsReported() {
        let m = MarbleTest()
        let issues = reportedIssues { m.expect(m.cold("a|"), "a^|") }
        #expect(issues == ["the expected marble a^| has events before its '^': the publisher is subscribed at '^'"])
    }
}

@Suite("MarbleTest.record")
struct MarbleRecordTests {
    @Test func theReadmeExampleDoesWhatItSays() {
        let m = MarbleTest()
        let query = m.hot("-a-b-----c--|")
        m.expect(query.debounce(for: .seconds(2), scheduler: m.scheduler), "-----b-----c|")
        #expect(query.subscriptions == ["^"])
        let numbers = m.cold("a-b|", values: ["a": 1, "b": 2])
        m.expect(numbers.map { $0 * 10 }, "x-y|", values: ["x": 10, "y": 20])
        #expect(m.record(numbers.delay(for: .seconds(2), scheduler: m.scheduler)).description == "--1-2|")
    }

    @Test func recordsUntilThePublisherCompletes() {
        let m = MarbleTest()
        let recording = m.record(m.cold("-a--b|"))
        #expect(recording.description == "-a--b|")
        #expect(recording.ticks.count == 6)
        #expect(recording.values == ["a", "b"])
        #expect(recording.completion == .finished)
        #expect(m.currentTick == 5)
    }

    @Test func recordsTheTicksAskedForOfAPublisherThatDoesNotComplete() {
        let m = MarbleTest()
        let source = m.hot("-a----b")
        let recording = m.record(source, ticks: 4)
        #expect(recording.description == "-a--")
        #expect(recording.completion == nil)
        #expect(source.subscriptions == ["^--!"])
    }

    @Test func stopsWhenNothingIsLeftOnTheScheduler() {
        let m = MarbleTest()
        #expect(m.record(Empty<Int, Never>(completeImmediately: false)).description == "-")
        #expect(m.record(Just(7)).description == "[7|]")
    }

    @Test func startsOnTheCurrentTick() {
        let m = MarbleTest()
        let source = m.hot("-a-b-c|")
        m.advance(ticks: 2)
        #expect(m.record(source).description == "-b-c|")
    }

    @Test func valuesAreDrawnByTheNamingGivenAndQuotedWhenLongerThanOneCharacter() {
        let m = MarbleTest()
        let recording = m.record(m.cold("-a-[bc]|", values: ["a": 1, "b": 2, "c": 30]))
        #expect(recording.marble() == "-1-[2'30']|")
        #expect(recording.marble(valueName: { "n\($0)" }) == "-'n1'-['n2''n30']|")
        #expect(m.record(m.cold("a#", values: ["a": "-"], error: CoreTestError(code: 1))).description == "'-'#")
    }

    @Test func eventsBetweenTicksCountOnTheEarlierTick() {
        let m = MarbleTest()
        let delayed = m.cold("a-b|").delay(for: .milliseconds(1500), scheduler: m.scheduler)
        #expect(m.record(delayed).description == "-a-b|")
    }

    @Test func aBoundedDemandIsRequestedOnce() {
        let m = MarbleTest()
        let source = m.cold("abc|")
        #expect(m.record(source, ticks: 5, demand: .max(2)).description == "ab---")  // c waits for demand
        #expect(source.requests == [.max(2)])
    }
}
