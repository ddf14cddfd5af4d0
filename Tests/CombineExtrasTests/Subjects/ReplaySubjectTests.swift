// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import CombineTesting
import Foundation
import Testing

@testable import CombineExtras

@Suite("ReplaySubject: the latest values and the completion, replayed within demand")
struct ReplaySubjectTests {
    @Test func aNewSubscriberGetsTheLatestValuesThenTheLiveOnes() {
        let subject = ReplaySubject<Int, ProbeError>(bufferSize: 2)
        let early = TestSubscriber<Int, ProbeError>()
        subject.subscribe(early)
        for value in 1...3 { subject.send(value) }
        let late = TestSubscriber<Int, ProbeError>()
        subject.subscribe(late)
        subject.send(4)
        #expect(early.values == [1, 2, 3, 4])
        #expect(late.values == [2, 3, 4])
    }

    @Test func theCompletionIsReplayedAfterTheValues() {
        let subject = ReplaySubject<Int, ProbeError>(bufferSize: 2)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        subject.send(4)
        subject.send(completion: .failure(ProbeError()))
        let late = TestSubscriber<Int, ProbeError>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .value(2), .value(3), .completion(.finished)])

        let failed = ReplaySubject<Int, ProbeError>(bufferSize: 5)
        failed.send(1)
        failed.send(completion: .failure(ProbeError(code: 4)))
        let afterFailure = TestSubscriber<Int, ProbeError>()
        failed.subscribe(afterFailure)
        #expect(afterFailure.events == [.subscription, .value(1), .completion(.failure(ProbeError(code: 4)))])
    }

    @Test func replayedAndLiveValuesWaitForTheSubscribersDemand() {
        let subject = ReplaySubject<Int, ProbeError>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(subscriber.values == [1])
        subject.send(4)
        subject.send(completion: .finished)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(subscriber.violations == [])
    }

    @Test func eachSubscriberHasItsOwnDemand() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let slow = TestSubscriber<Int, Never>(initialDemand: .none)
        let fast = TestSubscriber<Int, Never>()
        subject.subscribe(slow)
        subject.subscribe(fast)
        subject.send(1)
        subject.send(2)
        #expect(fast.values == [1, 2])
        #expect(slow.values == [])
        slow.request(.max(1))
        #expect(slow.values == [1])
    }

    @Test func aZeroOrNegativeBufferReplaysOnlyTheCompletion() {
        for size in [0, -3] {
            let subject = ReplaySubject<Int, Never>(bufferSize: size)
            let early = TestSubscriber<Int, Never>()
            subject.subscribe(early)
            subject.send(1)
            let late = TestSubscriber<Int, Never>()
            subject.subscribe(late)
            subject.send(2)
            subject.send(completion: .finished)
            let afterCompletion = TestSubscriber<Int, Never>()
            subject.subscribe(afterCompletion)
            #expect(early.values == [1, 2])
            #expect(late.values == [2])
            #expect(afterCompletion.events == [.subscription, .completion(.finished)])
        }
    }

    @Test func cancelStopsDeliveryToThatSubscriberOnly() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let leaving = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        subject.subscribe(leaving)
        subject.subscribe(staying)
        subject.send(1)
        leaving.cancel()
        leaving.cancel()
        subject.send(2)
        #expect(leaving.values == [1])
        #expect(staying.values == [1, 2])
    }

    @Test func aSubscriberThatCancelsOnSubscriptionGetsNothing() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, Never>(onSubscription: { $0.cancel() })
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
    }

    @Test func valuesSentFromInsideReceiveFollowInOrder() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value < 5 { subject.send(value + 1) }
            return .none
        })
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == [1, 2, 3, 4, 5])
    }

    @Test func anUpstreamSubscriptionIsAskedForEverythingAndItsValuesRecorded() {
        let upstream = TestPublisher<Int, Never>()
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        // A completed subject refuses a new upstream without asking it for anything.
        let second = TestPublisher<Int, Never>()
        let refused = second.subscribe(subject)
        #expect(second.requests == [])
        #expect(second.cancelCount == 1)
        withExtendedLifetime((connection, refused)) {}
    }

    @Test func subscribersJoiningWhileAnotherThreadSendsMissNothingAndSeeNothingTwice() async {
        await offThePool {
            let subject = ReplaySubject<Int, Never>(bufferSize: 8)
            let subscribers = LockedValue<[TestSubscriber<Int, Never>]>([])
            let count = 3_000
            runOverlapping(threads: 5) { thread in
                if thread == 0 {
                    for value in 0..<count { subject.send(value) }
                    subject.send(completion: .finished)
                } else {
                    for _ in 0..<20 {
                        let subscriber = TestSubscriber<Int, Never>()
                        subject.subscribe(subscriber)
                        subscribers.append(subscriber)
                    }
                }
            }
            for subscriber in subscribers.current {
                let values = subscriber.values
                // A contiguous run up to the last value: the replay, then every live value.
                #expect(values == Array((values.first ?? count)..<count))
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations == [])
            }
        }
    }

    @Test func sendsFromManyThreadsReachEverySubscriberInTheSameOrder() async {
        await offThePool {
            let subject = ReplaySubject<Int, Never>(bufferSize: 100)
            let first = TestSubscriber<Int, Never>()
            let second = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            subject.subscribe(first)
            subject.subscribe(second)
            runOverlapping(threads: 4) { thread in
                for step in 0..<250 { subject.send(thread * 1_000 + step) }
            }
            let late = TestSubscriber<Int, Never>()
            subject.subscribe(late)
            #expect(first.values.count == 1_000)
            #expect(second.values == first.values)
            #expect(late.values == Array(first.values.suffix(100)))
            #expect(first.violations == [])
            #expect(second.violations == [])
        }
    }

    @Test(arguments: [false, true])
    func aSubscriberIsReleasedAfterTheEnd(_ byCancel: Bool) {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        expectReleasedAfterEnd(
            byCancel: byCancel,
            attach: { subscriber, probe in subject.subscribe(subscriber.holding(probe)) },
            drive: { subject.send(1) },
            complete: { subject.send(completion: .finished) })
    }

    @Test func theSubjectDoesNotOutliveItsOwners() {
        weak var weakSubject: ReplaySubject<Int, Never>?
        let subscriber = TestSubscriber<Int, Never>()
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            weakSubject = subject
            subject.subscribe(subscriber)
            subject.send(1)
        }
        #expect(weakSubject == nil)
        #expect(subscriber.values == [1])
    }
}

@Suite("share(replay:): one upstream subscription, the latest values replayed")
struct ShareReplayTests {
    @Test func subscribersShareOneUpstreamAndLateOnesGetTheReplay() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share(replay: 2)
        let early = TestSubscriber<Int, Never>()
        shared.subscribe(early)
        for value in 1...3 { upstream.send(value) }
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        upstream.send(4)
        #expect(upstream.subscriptionCount == 1)
        #expect(early.values == [1, 2, 3, 4])
        #expect(late.values == [2, 3, 4])
    }

    @Test func whenAllLeaveTheUpstreamIsCancelledAndALaterSubscriberReconnectsAfterTheReplay() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share(replay: 1)
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.send(1)
        first.cancel()
        #expect(upstream.cancelCount == 1)
        let again = TestSubscriber<Int, Never>()
        shared.subscribe(again)
        #expect(upstream.subscriptionCount == 2)
        upstream.send(2)
        #expect(again.values == [1, 2])
    }

    @Test func afterTheUpstreamCompletedLaterSubscribersGetTheReplayAndTheCompletion() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share(replay: 1)
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(late.events == [.subscription, .value(2), .completion(.finished)])
        #expect(upstream.requests == [.unlimited])  // the new connection is refused unasked
    }

    @Test func aFailureIsReplayedToLateSubscribersAfterTheBufferedValuesAndIsNotRetried() {
        let upstream = TestPublisher<Int, ProbeError>()
        let shared = upstream.share(replay: 2)
        let failure = Subscribers.Completion<ProbeError>.failure(ProbeError(code: 4))
        let first = TestSubscriber<Int, ProbeError>()
        shared.subscribe(first)
        for value in 1...3 { upstream.send(value) }
        upstream.send(completion: failure)
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3), .completion(failure)])

        let late = TestSubscriber<Int, ProbeError>()
        shared.subscribe(late)
        #expect(late.events == [.subscription, .value(2), .value(3), .completion(failure)])
        // As with CombineExt's subject, the failure is final: the work is not asked for again
        // (a new upstream subscription, if any, is cancelled before any request).
        #expect(upstream.requests == [.unlimited])
        #expect(upstream.cancelCount == upstream.subscriptionCount - 1)
        #expect(!upstream.hasSubscriber)

        // Within demand: the failure waits behind the replayed values.
        let slow = TestSubscriber<Int, ProbeError>(initialDemand: .max(1))
        shared.subscribe(slow)
        #expect(slow.events == [.subscription, .value(2)])
        slow.request(.max(1))
        #expect(slow.events == [.subscription, .value(2), .value(3), .completion(failure)])
        #expect(first.violations == [])
        #expect(late.violations == [])
        #expect(slow.violations == [])
    }

    @Test func theReplayRespectsEachSubscribersDemand() {
        let upstream = PassthroughSubject<Int, Never>()
        let shared = upstream.share(replay: 3)
        let keeper = TestSubscriber<Int, Never>()
        shared.subscribe(keeper)
        for value in 1...3 { upstream.send(value) }
        let bounded = TestSubscriber<Int, Never>(initialDemand: .max(2))
        shared.subscribe(bounded)
        #expect(bounded.values == [1, 2])
        #expect(bounded.violations == [])
    }

    /// The serial-delivery engine's rules hold for this subject too (ARCHITECTURE.md, "Serial
    /// delivery"): four threads flooding a slow subscriber get every value to it once, in each
    /// thread's order, one call at a time, with at most 1,024 values waiting for the
    /// delivering thread (plus one per sending thread, which queues before it waits).
    @Test func aFloodFromFourThreadsIntoASlowSubscriberStaysBounded() async {
        await offThePool {
            let senders = 4
            let perSender = 3_000
            let subject = ReplaySubject<Int, Never>(bufferSize: 0)
            let log = LockedValue([Int]())
            let inside = LockedValue(false)
            let overlaps = LockedValue(0)
            let subscriber = TestSubscriber<Int, Never>(onValue: { value in
                inside.withLock {
                    if $0 { overlaps.increment() }
                    $0 = true
                }
                log.append(value)
                let until = ContinuousClock.now + .microseconds(20)
                while ContinuousClock.now < until {}
                inside.set(false)
                return .none
            })
            subject.subscribe(subscriber)
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            subject.send(completion: .finished)
            expectEachThreadsValuesInOrder(log.current, threads: senders, perThread: perSender)
            #expect(overlaps.current == 0)
            #expect(subscriber.completion == .finished)
            let peak = (subscriber.subscription as? SerialDeliveryOwner)?.peakBacklog ?? -1
            #expect(peak > 0, "peak backlog \(peak)")
            #expect(peak <= 1_024 + senders, "peak backlog \(peak)")
        }
    }
}
