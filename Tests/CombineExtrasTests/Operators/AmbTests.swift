// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("amb: the first publisher to emit wins, the others are cancelled")
struct AmbTests {
    typealias Source = TestPublisher<Int, ProbeError>

    private func race(demand: Subscribers.Demand = .unlimited) -> (Source, Source, TestSubscriber<Int, ProbeError>) {
        let first = Source()
        let second = Source()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: demand)
        first.amb(second).subscribe(subscriber)
        return (first, second, subscriber)
    }

    @Test func bothAreSubscribedAndAskedForOneValue() {
        let (first, second, subscriber) = race()
        #expect(first.subscriptionCount == 1)
        #expect(second.subscriptionCount == 1)
        #expect(first.requests == [.max(1)])
        #expect(second.requests == [.max(1)])
        #expect(subscriber.events == [.subscription])
    }

    @Test func theFirstValueWinsAndTheOtherIsCancelledAtOnce() {
        let (first, second, subscriber) = race()
        second.send(10)
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 0)
        first.send(1)  // the loser is detached; nothing reaches the subscriber
        second.send(11)
        second.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(10), .value(11), .completion(.finished)])
        #expect(subscriber.violations == [])
    }

    @Test func theDemandRequestedBeforeTheDecisionGoesToTheWinner() {
        let (first, second, subscriber) = race(demand: .max(3))
        #expect(first.requests == [.max(1)])
        // The race request paid for the first value; the other two go to the winner.
        #expect(first.send(1) == .max(2))
        #expect(second.requests == [.max(1)])
        first.send(2)
        first.send(3)
        first.send(4)  // beyond the demand: held back
        #expect(subscriber.values == [1, 2, 3])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.violations == [])
    }

    @Test func afterTheDecisionDemandPassesStraightThrough() {
        let (first, _, subscriber) = race(demand: .max(1))
        first.send(1)
        subscriber.request(.max(5))
        #expect(first.requests == [.max(1), .max(5)])
        subscriber.request(.unlimited)
        #expect(first.requests.last == .unlimited)
    }

    @Test func aWinningValueWaitsForDemandAndThenPaysForItsRaceRequest() {
        let (first, second, subscriber) = race(demand: .none)
        first.send(7)
        #expect(second.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(2))
        #expect(subscriber.values == [7])
        #expect(first.requests == [.max(1), .max(1)])
        first.send(8)
        #expect(subscriber.values == [7, 8])
        #expect(subscriber.violations == [])
    }

    @Test func demandReturnedFromReceiveGoesToTheWinner() {
        let first = Source()
        let second = Source()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .max(1), onValue: { _ in .max(2) })
        first.amb(second).subscribe(subscriber)
        #expect(first.send(1) == .max(2))
    }

    @Test func aCompletionWinsToo() {
        let (first, second, subscriber) = race()
        second.send(completion: .finished)
        #expect(first.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aFailureWinsAndIsPassedOn() {
        let (first, second, subscriber) = race(demand: .none)
        first.send(completion: .failure(ProbeError(code: 3)))
        #expect(second.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .completion(.failure(ProbeError(code: 3)))])
    }

    @Test func theWinnersCompletionWaitsBehindItsHeldValue() {
        let (first, _, subscriber) = race(demand: .none)
        first.send(5)
        first.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
    }

    @Test func theWinnersFailureIsPassedOn() {
        let (first, _, subscriber) = race()
        first.send(1)
        first.send(completion: .failure(ProbeError(code: 9)))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(ProbeError(code: 9)))])
    }

    @Test func cancelBeforeTheDecisionCancelsEveryContender() {
        let (first, second, subscriber) = race()
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func cancelAfterTheDecisionCancelsTheWinner() {
        let (first, second, subscriber) = race()
        first.send(1)
        subscriber.cancel()
        #expect(first.cancelCount == 1)
        #expect(second.cancelCount == 1)
        first.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func aSynchronousWinnerSettlesTheRaceBeforeTheOthersAreSubscribed() {
        let late = Source()
        let subscriber = TestSubscriber<Int, ProbeError>()
        Just(1).setFailureType(to: ProbeError.self).amb(late).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(late.subscriptionCount == 0)
    }

    @Test func aSubscriberThatCancelsOnSubscriptionSubscribesNobody() {
        let first = Source()
        let second = Source()
        let subscriber = TestSubscriber<Int, ProbeError>(onSubscription: { $0.cancel() })
        first.amb(second).subscribe(subscriber)
        #expect(first.subscriptionCount == 0)
        #expect(second.subscriptionCount == 0)
    }

    @Test func aCollectionRacesAllItsPublishers() {
        let sources = (0..<3).map { _ in Source() }
        let subscriber = TestSubscriber<Int, ProbeError>()
        sources.amb().subscribe(subscriber)
        #expect(sources.map(\.requests) == [[.max(1)], [.max(1)], [.max(1)]])
        sources[1].send(20)
        #expect(sources.map(\.cancelCount) == [1, 0, 1])
        sources[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(20), .completion(.finished)])
    }

    @Test func aCollectionFailsWithAFailureThatWinsTheRaceAndCancelsTheOthers() {
        let sources = (0..<3).map { _ in Source() }
        let subscriber = TestSubscriber<Int, ProbeError>()
        sources.amb().subscribe(subscriber)
        sources[2].send(completion: .failure(ProbeError(code: 7)))
        #expect(sources.map(\.cancelCount) == [1, 1, 0])
        sources[0].send(1)  // a loser: detached
        #expect(subscriber.events == [.subscription, .completion(.failure(ProbeError(code: 7)))])
    }

    @Test func aCollectionPassesOnItsWinnersFailure() {
        let sources = (0..<3).map { _ in Source() }
        let subscriber = TestSubscriber<Int, ProbeError>()
        sources.amb().subscribe(subscriber)
        sources[1].send(5)
        sources[1].send(completion: .failure(ProbeError(code: 8)))
        #expect(sources.map(\.cancelCount) == [1, 0, 1])
        #expect(subscriber.events == [.subscription, .value(5), .completion(.failure(ProbeError(code: 8)))])
        #expect(subscriber.violations == [])
    }

    @Test(arguments: [false, true])
    func cancellingACollectionsSubscriberCancelsEveryContenderOnce(_ afterTheDecision: Bool) {
        let sources = (0..<3).map { _ in Source() }
        let subscriber = TestSubscriber<Int, ProbeError>()
        sources.amb().subscribe(subscriber)
        if afterTheDecision { sources[1].send(5) }
        subscriber.cancel()
        subscriber.cancel()
        #expect(sources.map(\.cancelCount) == [1, 1, 1])
        #expect(sources.map(\.hasSubscriber) == [false, false, false])
        for source in sources { source.send(9) }
        #expect(subscriber.values == (afterTheDecision ? [5] : []))
        #expect(subscriber.completion == nil)
    }

    @Test func anEmptyCollectionFinishesAtOnce() {
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .none)
        [Source]().amb().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func aCollectionOfOneMirrorsIt() {
        let only = Source()
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .max(2))
        [only].amb().subscribe(subscriber)
        #expect(only.send(1) == .max(1))
        only.send(2)
        only.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(only.requests == [.max(1)])
    }

    @Test func ambWithOthersRacesThemAll() {
        let (first, second, third) = (Source(), Source(), Source())
        let subscriber = TestSubscriber<Int, ProbeError>()
        first.amb(with: second, third).subscribe(subscriber)
        third.send(3)
        #expect([first.cancelCount, second.cancelCount, third.cancelCount] == [1, 1, 0])
        #expect(subscriber.values == [3])

        let listed = TestSubscriber<Int, ProbeError>()
        first.amb(with: [second, third]).subscribe(listed)
        first.send(1)
        #expect(listed.values == [1])
    }

    @Test func racesOnTwoThreadsHaveExactlyOneWinner() async {
        await offThePool {
            for _ in 0..<200 {
                let left = PassthroughSubject<Int, Never>()
                let right = PassthroughSubject<Int, Never>()
                let subscriber = TestSubscriber<Int, Never>()
                left.amb(right).subscribe(subscriber)
                runOverlapping(threads: 2) { side in
                    let subject = side == 0 ? left : right
                    for step in 0..<20 { subject.send(side * 100 + step) }
                }
                let values = subscriber.values
                let winner = values.first.map { $0 / 100 }
                #expect(values == Array(0..<20).map { (winner ?? 0) * 100 + $0 })
                #expect(subscriber.violations == [])
            }
        }
    }

    @Test(arguments: [false, true])
    func theSubscriberAndContendersAreReleasedAfterTheEnd(_ byCancel: Bool) {
        let (first, second) = (Source(), Source())
        expectReleasedAfterEnd(
            byCancel: byCancel,
            attach: { subscriber, probe in first.amb(second).subscribe(subscriber.holding(probe)) },
            drive: { first.send(1) },
            complete: { first.send(completion: .finished) })
        #expect(!first.hasSubscriber)
        #expect(!second.hasSubscriber)
    }

    /// A failure of the winner, or a failure that wins the race (the first event).
    @Test(arguments: [false, true])
    func theSubscriberAndContendersAreReleasedAfterAFailure(_ failureWinsTheRace: Bool) {
        let (first, second) = (Source(), Source())
        expectReleasedAfterEnd(
            byCancel: false,
            failing: true,
            attach: { subscriber, probe in first.amb(second).subscribe(subscriber.holding(probe)) },
            drive: { if !failureWinsTheRace { first.send(1) } },
            complete: { first.send(completion: .failure(ProbeError(code: 1))) })
        #expect(!first.hasSubscriber)
        #expect(!second.hasSubscriber)
        #expect(second.cancelCount == 1)
    }

    @Test func aCollectionsContendersAreReleasedAfterAFailure() {
        let sources = (0..<3).map { _ in Source() }
        expectReleasedAfterEnd(
            byCancel: false,
            failing: true,
            attach: { subscriber, probe in sources.amb().subscribe(subscriber.holding(probe)) },
            drive: { sources[2].send(1) },
            complete: { sources[2].send(completion: .failure(ProbeError(code: 1))) })
        #expect(sources.map(\.hasSubscriber) == [false, false, false])
        #expect(sources.map(\.cancelCount) == [1, 1, 0])
    }
}
