// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {}

private func seconds(_ s: Int) -> VirtualTime { .zero.advanced(by: .seconds(s)) }

@Suite("receive(on:)")
struct ReceiveOnTests {
    @Test func deliversValuesAndCompletionOnTheSchedulerInOrder() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        subject.receive(on: scheduler).subscribe(subscriber)
        #expect(subscriber.subscriptionCount == 1)  // the subscription is not scheduled
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(Failure()))
        #expect(subscriber.values.isEmpty)
        scheduler.advance()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Failure()))])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func requestsGoStraightUpstreamAndReturnedDemandIsRequestedAfterDelivery() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(2) })
        upstream.receive(on: scheduler).subscribe(subscriber)
        #expect(upstream.requests == [.max(1)])  // not scheduled
        #expect(upstream.send(1) == .none)  // the value is only scheduled
        #expect(upstream.requests == [.max(1)])
        scheduler.advance()
        #expect(upstream.requests == [.max(1), .max(2)])
        #expect(subscriber.values == [1])
    }

    @Test func cancelDropsWhatIsAlreadyScheduledAndCancelsUpstreamOnce() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        subscriber.cancel()
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
        #expect(upstream.cancelCount == 0)  // upstream had already finished: nothing to cancel
    }

    @Test func cancelBeforeCompletionCancelsUpstream() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.receive(on: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        scheduler.advance()
        #expect(subscriber.values.isEmpty)
        #expect(upstream.cancelCount == 1)
    }

    @Test func aSubscriberSendingIntoItsSubjectFromReceiveGetsTheValueOnALaterTurn() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(onValue: { value in
            if value < 3 { subject.send(value + 1) }
            return .none
        })
        subject.receive(on: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func releasesTheSubscriberAndClosuresAfterCompletionAndAfterCancel() {
        for cancelling in [false, true] {
            let scheduler = VirtualScheduler()
            let subject = PassthroughSubject<Int, Never>()
            weak var weakToken: LifetimeToken?
            var cancellable: AnyCancellable?
            do {
                let token = LifetimeToken()
                weakToken = token
                cancellable = subject.receive(on: scheduler).sink { _ in _ = token }
            }
            subject.send(1)
            if cancelling { cancellable?.cancel() } else { subject.send(completion: .finished) }
            scheduler.advance()
            #expect(weakToken == nil, "cancelling: \(cancelling)")
            withExtendedLifetime(cancellable) {}
        }
    }
}

@Suite("subscribe(on:)")
struct SubscribeOnTests {
    @Test func subscribesRequestsAndCancelsOnTheScheduler() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        upstream.subscribe(on: scheduler).subscribe(subscriber)
        #expect(upstream.subscriptionCount == 0)
        #expect(subscriber.subscriptionCount == 0)
        scheduler.advance()  // subscribes; the subscriber's request is scheduled in turn, due now
        #expect(subscriber.subscriptionCount == 1)
        #expect(upstream.requests == [.max(2)])
        subscriber.request(.max(1))
        #expect(upstream.requests == [.max(2)])
        scheduler.advance()
        #expect(upstream.requests == [.max(2), .max(1)])
        upstream.send(1)  // values are not scheduled
        #expect(subscriber.values == [1])
        subscriber.cancel()
        #expect(upstream.cancelCount == 0)
        scheduler.advance()
        #expect(upstream.cancelCount == 1)
        upstream.send(2)
        #expect(subscriber.values == [1])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func passesCompletionThrough() {
        let scheduler = VirtualScheduler()
        let subscriber = TestSubscriber<Int, Failure>()
        Fail<Int, Failure>(error: Failure()).subscribe(on: scheduler).subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure()))])
    }

    @Test func aSequenceDeliversEverythingOnceTheRequestRuns() {
        let scheduler = VirtualScheduler()
        let subscriber = TestSubscriber<Int, Never>()
        (1...3).publisher.subscribe(on: scheduler).subscribe(subscriber)
        scheduler.run()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
    }
}

/// Apple's edges of receive(on:), delay and subscribe(on:): `.none` is passed upstream, and the
/// subscriptions show themselves per operator.
@Suite("receive(on:), delay, subscribe(on:): Apple's edges")
struct SchedulingEdgeTests {
    @Test func requestingNoneIsPassedUpstream() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.receive(on: scheduler).subscribe(subscriber)
        subscriber.subscription?.request(.none)
        #expect(upstream.requests == [.none])

        let later = TestPublisher<Int, Never>()
        let subscribed = TestSubscriber<Int, Never>(initialDemand: .none)
        later.subscribe(on: scheduler).subscribe(subscribed)
        scheduler.advance()
        subscribed.subscription?.request(.none)
        scheduler.advance()
        #expect(later.requests == [.none])
    }

    @Test func subscriptionsShowThemselvesAsApples() throws {
        let scheduler = VirtualScheduler()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).receive(on: scheduler).subscribe(subscriber)
        let receiveOn = subscriber.subscription
        #expect(receiveOn.map { "\($0)" } == "ReceiveOn")
        #expect(receiveOn.map { Mirror(reflecting: $0).children.count } == 0)
        let delayed = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).delay(for: .seconds(1), scheduler: scheduler).subscribe(delayed)
        // Apple's delay subscription has no description, mirror or playground description.
        let delay = try #require(delayed.subscription)
        #expect(!(delay is CustomStringConvertible))
        #expect(!(delay is CustomReflectable))
    }

    /// Apple's subscribe(on:) calls its upstream under a lock; with a scheduler that runs
    /// actions at once, a request made from inside the upstream's own request traps there.
    /// Ours names the rule.
    @Test func aRequestFromInsideTheUpstreamsRequestOnAnImmediateSchedulerTraps() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .none })
                let upstream = (1...3).publisher.handleEvents(receiveOutput: { _ in subscriber.request(.max(1)) })
                upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
            }
        }
        #expect(standardErrorText(of: result).contains("subscribe(on:) was asked to request or cancel from inside"))
    }
}

@Suite("delay(for:tolerance:scheduler:options:)")
struct DelayTests {
    @Test func delaysEachValueAndTheCompletionByTheInterval() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let times = LockedValue<[(Int, VirtualTime)]>([])
        let subscriber = TestSubscriber<Int, Never>(
            onValue: { value in
                times.withLock { $0.append((value, scheduler.now)) }
                return .none
            },
            onCompletion: { _ in times.withLock { $0.append((-1, scheduler.now)) } })
        subject.delay(for: .seconds(2), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        scheduler.advance(by: .seconds(1))
        subject.send(2)
        subject.send(completion: .finished)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1])
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.completion == .finished)
        #expect(times.withLock { $0 }.map(\.1) == [seconds(2), seconds(3), seconds(3)])
    }

    @Test func aFailureIsDelayedToo() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        subject.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .failure(Failure()))
        #expect(subscriber.completion == nil)
        scheduler.advance(by: .seconds(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Failure()))])
    }

    @Test func demandReturnedByTheSubscriberIsRequestedWhenTheValueIsDelivered() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        #expect(upstream.requests == [.max(1)])
        upstream.send(1)
        #expect(upstream.requests == [.max(1)])
        scheduler.advance(by: .seconds(1))
        #expect(upstream.requests == [.max(1), .max(1)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelDuringAPendingDelayDeliversNothing() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(1)
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
        scheduler.advance(by: .seconds(5))
        #expect(subscriber.values.isEmpty)
        #expect(!upstream.hasSubscriber)
    }

    @Test func keepsToleranceAndOptions() {
        let scheduler = VirtualScheduler()
        let delay = Just(1).delay(for: .seconds(3), scheduler: scheduler)
        #expect(delay.interval == .seconds(3))
        #expect(delay.tolerance == scheduler.minimumTolerance)
        #expect(Just(1).delay(for: 1, tolerance: 0.5, scheduler: scheduler).tolerance == .milliseconds(500))
    }
}

@Suite("measureInterval(using:options:)")
struct MeasureIntervalTests {
    @Test func measuresFromTheSubscriptionThenBetweenValues() {
        let scheduler = VirtualScheduler()
        let subject = PassthroughSubject<String, Failure>()
        let subscriber = TestSubscriber<VirtualTime.Stride, Failure>()
        scheduler.advance(by: .seconds(10))
        subject.measureInterval(using: scheduler).subscribe(subscriber)
        scheduler.advance(by: .seconds(2))
        subject.send("a")
        scheduler.advance(by: .milliseconds(500))
        subject.send("b")
        subject.send("c")
        subject.send(completion: .failure(Failure()))
        #expect(subscriber.values == [.seconds(2), .milliseconds(500), .zero])
        #expect(subscriber.completion == .failure(Failure()))
    }

    @Test func passesDemandAndCancellationThrough() {
        let scheduler = VirtualScheduler()
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<VirtualTime.Stride, Never>(initialDemand: .max(3))
        upstream.measureInterval(using: scheduler).subscribe(subscriber)
        #expect(upstream.requests == [.max(3)])
        subscriber.cancel()
        #expect(upstream.cancelCount == 1)
    }
}
