// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import TestSupport
import Testing

@Suite("MarbleTest.hot")
struct HotMarbleTests {
    @Test func eachEventHappensOnItsTickAndOnlyWhenTheClockMoves() {
        let m = MarbleTest(tick: .milliseconds(10))
        let source = m.hot("a-b--|")
        let (subscriber, log) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(subscriber)
        #expect(log.current == [])  // even tick 0 waits for the clock
        m.advance(ticks: 0)
        #expect(log.current == ["a@0"])
        m.scheduler.advance(by: .milliseconds(49))
        #expect(log.current == ["a@0", "b@2"])
        m.scheduler.advance(by: .milliseconds(1))
        #expect(log.current == ["a@0", "b@2", "|@5"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aFailureCarriesTheGivenError() {
        let m = MarbleTest()
        let source = m.hot("-a-#", values: ["a": 1], error: CoreTestError(code: 4))
        let subscriber = TestSubscriber<Int, CoreTestError>()
        source.subscribe(subscriber)
        m.advance(ticks: 5)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(CoreTestError(code: 4)))])
    }

    @Test func stringMarblesAreTheirOwnValuesAndFailWithMarbleError() {
        let m = MarbleTest()
        #expect(
            m.record(m.hot("a'bc'#")).ticks == [[.value("a")], [.value("bc")], [.completion(.failure(MarbleError()))]])
        #expect(m.record(m.hot("-#", error: MarbleError("x"))).completion == .failure(MarbleError("x")))
    }

    @Test func ticksBeforeTheCaretHappenBeforeTheTestSubscribes() {
        let m = MarbleTest()
        let source = m.hot("a-a-^-b-|")
        let (subscriber, log) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(subscriber)
        m.advance(ticks: 6)
        #expect(log.current == ["b@2", "|@4"])
    }

    @Test func aCompletionBeforeTheCaretCompletesEachSubscriberAtOnce() {
        let m = MarbleTest()
        let source = m.hot("-a|-^---")
        let subscriber = TestSubscriber<String, MarbleError>()
        source.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        m.advance(ticks: 5)
        #expect(subscriber.events.count == 2)
        #expect(source.subscriptions == ["^"])
    }

    @Test func aLateSubscriberMissesWhatHappenedBeforeItAndGetsTheCompletionAfterward() {
        let m = MarbleTest()
        let source = m.hot("-a-b-|")
        let (first, firstLog) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        let (second, secondLog) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        let (third, thirdLog) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(first)
        m.advance(ticks: 2)
        source.subscribe(second)
        m.advance(ticks: 4)
        source.subscribe(third)
        #expect(firstLog.current == ["a@1", "b@3", "|@5"])
        #expect(secondLog.current == ["b@3", "|@5"])
        #expect(thirdLog.current == ["|@6"])
        #expect(source.subscriptions == ["^", "--^", "------^"])
    }

    @Test func aValueArrivingWithoutDemandIsMissedAsWithAPassthroughSubject() {
        let m = MarbleTest()
        let source = m.hot("a-b-c-d|")
        let (subscriber, log) =
            tickLoggingSubscriber(m, initialDemand: .max(1)) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(subscriber)
        m.advance(ticks: 3)
        subscriber.request(.max(2))
        m.advance(ticks: 5)
        #expect(log.current == ["a@0", "c@4", "d@6", "|@7"])
        #expect(source.requests == [.max(1), .max(2)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func aGroupMeetsTheDemandInOrder() {
        let m = MarbleTest()
        let source = m.hot("[abc]", values: ["a": 1, "b": 2, "c": 3])
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { $0 == 1 ? .max(1) : .none })
        source.subscribe(subscriber)
        m.advance(ticks: 1)
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theCompletionNeedsNoDemand() {
        let m = MarbleTest()
        let subscriber = TestSubscriber<String, MarbleError>(initialDemand: .none)
        m.hot("a-|").subscribe(subscriber)
        m.advance(ticks: 3)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func everySubscriberGetsEachEvent() {
        let m = MarbleTest()
        let source = m.hot("-a-b|")
        let first = TestSubscriber<String, MarbleError>()
        let second = TestSubscriber<String, MarbleError>()
        source.subscribe(first)
        source.subscribe(second)
        m.advance(ticks: 5)
        for subscriber in [first, second] {
            #expect(subscriber.events == [.subscription, .value("a"), .value("b"), .completion(.finished)])
        }
    }

    @Test func cancelStopsDeliveryOnceAndIsRecorded() {
        let m = MarbleTest()
        let source = m.hot("-a-b-c|")
        let subscriber = TestSubscriber<String, MarbleError>()
        source.subscribe(subscriber)
        m.advance(ticks: 2)
        subscriber.cancel()
        subscriber.cancel()
        m.advance(ticks: 5)
        #expect(subscriber.events == [.subscription, .value("a")])
        #expect(source.subscriptions == ["^-!"])
    }

    @Test func aCancelOnTheSubscriptionsOwnTickIsDrawnAsAGroup() {
        let m = MarbleTest()
        let source = m.hot("----a")
        m.advance(ticks: 3)
        let cancelled = TestSubscriber<String, MarbleError>(initialDemand: .none)
        let open = TestSubscriber<String, MarbleError>(initialDemand: .none)
        source.subscribe(cancelled)
        source.subscribe(open)
        cancelled.cancel()
        #expect(source.subscriptions == ["---[^!]", "---^"])
    }

    @Test func aSubscriberMayCancelFromInsideReceive() {
        let m = MarbleTest()
        let source = m.hot("-[ab]-c|")
        let subscriber = TestSubscriber<String, MarbleError>()
        source.subscribe(subscriber)
        let values = LockedValue<[String]>([])
        var cancellable: AnyCancellable?
        cancellable = source.sink(
            receiveCompletion: { _ in },
            receiveValue: { value in
                values.append(value)
                cancellable?.cancel()
            })
        m.advance(ticks: 5)
        #expect(values.current == ["a"])
        #expect(subscriber.values == ["a", "b", "c"])
        #expect(source.subscriptions == ["^", "^!"])
    }
}

@Suite("MarbleTest.cold")
struct ColdMarbleTests {
    @Test func eachSubscriberGetsItsOwnTimelineFromItsSubscription() {
        let m = MarbleTest()
        let source = m.cold("a-b|")
        let (first, firstLog) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        let (second, secondLog) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(first)
        m.advance(ticks: 2)
        source.subscribe(second)
        m.advance(ticks: 5)
        #expect(firstLog.current == ["a@0", "b@2", "|@3"])
        #expect(secondLog.current == ["a@2", "b@4", "|@5"])
        #expect(source.subscriptions == ["^", "--^"])
    }

    @Test func aCaretOnlyAlignsTheMarble() {
        let m = MarbleTest()
        let (subscriber, log) = tickLoggingSubscriber(m) as (TestSubscriber<String, MarbleError>, _)
        m.cold("  ^-a|").subscribe(subscriber)
        m.advance(ticks: 4)
        #expect(log.current == ["a@2", "|@3"])
    }

    @Test func aFailureCarriesTheGivenError() {
        let m = MarbleTest()
        let subscriber = TestSubscriber<Int, CoreTestError>()
        m.cold("a#", values: ["a": 1], error: CoreTestError(code: 2)).subscribe(subscriber)
        m.advance(ticks: 2)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(CoreTestError(code: 2)))])
    }

    @Test func valuesNotYetRequestedWaitInOrderAndArriveWhenRequested() {
        let m = MarbleTest()
        let source = m.cold("abc|")
        let (subscriber, log) =
            tickLoggingSubscriber(m, initialDemand: .max(1)) as (TestSubscriber<String, MarbleError>, _)
        source.subscribe(subscriber)
        m.advance(ticks: 5)
        #expect(log.current == ["a@0"])  // b, c and the completion behind them wait
        subscriber.request(.max(1))
        #expect(log.current == ["a@0", "b@5"])
        m.advance(ticks: 1)
        subscriber.request(.max(3))
        #expect(log.current == ["a@0", "b@5", "c@6", "|@6"])
        #expect(source.requests == [.max(1), .max(1), .max(3)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func theCompletionWaitsOnlyForTheValuesBeforeIt() {
        let m = MarbleTest()
        let (subscriber, log) =
            tickLoggingSubscriber(m, initialDemand: .none) as (TestSubscriber<String, MarbleError>, _)
        m.cold("--|").subscribe(subscriber)
        m.advance(ticks: 3)
        #expect(log.current == ["|@2"])
    }

    @Test func demandReturnedFromReceiveKeepsValuesOnTime() {
        let m = MarbleTest()
        let (subscriber, log) =
            tickLoggingSubscriber(m, initialDemand: .max(1), onValue: { _ in .max(1) })
            as (TestSubscriber<String, MarbleError>, _)
        m.cold("a[bc]-d|").subscribe(subscriber)
        m.advance(ticks: 5)
        #expect(log.current == ["a@0", "b@1", "c@1", "d@3", "|@4"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelStopsTheTimelineOnceAndIsRecorded() {
        let m = MarbleTest()
        let source = m.cold("a-b-c|")
        let subscriber = TestSubscriber<String, MarbleError>()
        m.advance(ticks: 1)
        source.subscribe(subscriber)
        m.advance(ticks: 2)
        subscriber.cancel()
        subscriber.cancel()
        m.advance(ticks: 6)
        #expect(subscriber.events == [.subscription, .value("a"), .value("b")])
        #expect(source.subscriptions == ["-^-!"])
    }

    @Test func heldValuesAreDroppedOnCancel() {
        let m = MarbleTest()
        let subscriber = TestSubscriber<String, MarbleError>(initialDemand: .none)
        m.cold("ab|").subscribe(subscriber)
        m.advance(ticks: 3)
        subscriber.cancel()
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription])
    }

    @Test func requestsFromManyThreadsGetEachHeldValueOnceInOrder() async {
        await offThePool {
            let m = MarbleTest()
            let values = (0..<100).map { "v\($0)" }
            let marble = "[" + values.map { "'\($0)'" }.joined() + "|]"
            let subscriber = TestSubscriber<String, MarbleError>(initialDemand: .none)
            m.cold(marble).subscribe(subscriber)
            m.advance(ticks: 1)
            DispatchQueue.concurrentPerform(iterations: 100) { _ in subscriber.request(.max(1)) }
            #expect(subscriber.values == values)
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations.isEmpty)
        }
    }
}

@Suite("MarblePublisher release")
struct MarblePublisherReleaseTests {
    // The sink's closure holds a token: once the publisher lets go of the sink, the token is
    // gone. The marble completes at tick 3; the subscriber cancels at tick 2 or not at all.
    @Test(arguments: [true, false], [true, false])
    func theSubscriberIsReleasedOnCancelAndOnCompletion(hot: Bool, cancelling: Bool) {
        let m = MarbleTest()
        let values = ["a": 1, "b": 2]
        let source: MarblePublisher<Int, Never> = hot ? m.hot("-a-|", values: values) : m.cold("-a-|", values: values)
        weak var token: LifetimeToken?
        var cancellable: AnyCancellable?
        do {
            let captured = LifetimeToken()
            token = captured
            cancellable = source.sink { _ in _ = captured }
        }
        m.advance(ticks: 2)
        #expect(token != nil)
        if cancelling {
            cancellable?.cancel()
        } else {
            m.advance(ticks: 1)
        }
        #expect(token == nil)
        #expect(source.subscriptions == [cancelling ? "^-!" : "^"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func aHotPublisherPlaysWhileOnlyItsSubscribersAndTheClockKeepIt() {
        let m = MarbleTest()
        let values = LockedValue<[String]>([])
        let cancellable = m.hot("-a-b").sink(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        m.advance(ticks: 4)
        #expect(values.current == ["a", "b"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func thePublisherIsReleasedWithItsMarbleTest() {
        weak var publisher: MarblePublisher<String, MarbleError>?
        do {
            let m = MarbleTest()
            let source = m.hot("-a--b")
            publisher = source
            m.advance(ticks: 2)
        }
        #expect(publisher == nil)
    }
}

@Suite("MarbleTest misuse")
struct MarbleMisuseTests {
    @Test func aMalformedMarbleIsReportedWithItsSyntaxErrorAndPlaysNothing() {
        let m = MarbleTest()
        var source: MarblePublisher<String, MarbleError>?
        let issues = reportedIssues { source = m.hot("-a-[b") }
        #expect(issues == ["marble syntax error at column 4: '[' is never closed by ']'\n  -a-[b\n     ^"])
        #expect(m.record(source!, ticks: 5).description == "-----")
    }

    @Test func aNameMissingFromValuesIsReported() {
        let m = MarbleTest()
        let issues = reportedIssues { _ = m.cold("a-b|", values: ["a": 1]) }
        #expect(issues == [#"the marble a-b| names a value 'b' that is not in values: ["a"]"#])
    }

    @Test func aFailureInAMarbleThatCannotFailIsReported() {
        let m = MarbleTest()
        let issues = reportedIssues { _ = m.hot("a#", values: ["a": 1]) }
        #expect(issues == ["the marble a# has a '#' but its publisher cannot fail (Failure is Never)"])
    }

    @Test func aColdMarbleWithEventsBeforeItsCaretIsReported() {
        let m = MarbleTest()
        let issues = reportedIssues { _ = m.cold("a-^-b") }
        #expect(issues.count == 1)
        #expect(issues.first?.contains("a cold timeline starts when it is subscribed") == true)
    }
}
