// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

/// A subscriber kept alive only by its subscription (each holds the other, as a subscriber
/// that keeps its subscription does), which cancels that subscription again from its deinit —
/// what an object that "cancels on deinit" does. A subscription that lets go of its subscriber
/// while holding its own lock is re-entered by that cancel and waits on itself forever (the lock
/// is not recursive): whatever a subscription releases must be released after the lock.
private final class CancelsWhenReleased<Input, Failure: Error>: Subscriber {
    private(set) var subscription: Subscription?

    func receive(subscription: Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand { .none }

    func receive(completion: Subscribers.Completion<Failure>) {}

    deinit {
        subscription?.cancel()
    }
}

/// An object captured by an operator's closure that cancels a subscription when it goes.
private final class CancelsOnDeinit {
    var subscription: Subscription?

    deinit {
        subscription?.cancel()
    }
}

/// Sources that stay live until the test ends them, and whatever else a case must keep.
private final class LiveSources {
    let first = PassthroughSubject<Int, ProbeError>()
    let second = PassthroughSubject<Int, ProbeError>()
    let events = PassthroughSubject<Event<Int, ProbeError>, Never>()
    let scheduler = TestScheduler<VirtualTime, Never>()
}

private struct LiveCase: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable (LiveSources) -> AnyPublisher<Int, ProbeError>

    var testDescription: String { name }
}

private let ownSubscriptions: [LiveCase] = [
    LiveCase(name: "Publishers.interval") {
        Publishers.interval(.seconds(1), scheduler: $0.scheduler).setFailureType(to: ProbeError.self)
            .eraseToAnyPublisher()
    },
    LiveCase(name: "dematerialize") { sources in
        sources.events.dematerialize().eraseToAnyPublisher()
    },
    LiveCase(name: "retry(_:when:)") { $0.first.retry(1) { _ in Just(()) }.eraseToAnyPublisher() },
    LiveCase(name: "Collection.zip") { [$0.first, $0.second].zip().map { $0[0] }.eraseToAnyPublisher() },
    LiveCase(name: "Collection.combineLatest") {
        [$0.first, $0.second].combineLatest().map { $0[0] }.eraseToAnyPublisher()
    },
    LiveCase(name: "amb") { $0.first.amb($0.second).eraseToAnyPublisher() },
    LiveCase(name: "withLatestFrom") { $0.first.withLatestFrom($0.second).eraseToAnyPublisher() },
    LiveCase(name: "AnyPublisher.create") { _ in AnyPublisher<Int, ProbeError>.create { _ in AnyCancellable {} } },
    LiveCase(name: "ReplaySubject") { _ in ReplaySubject<Int, ProbeError>(bufferSize: 1).eraseToAnyPublisher() },
]

@Suite("CombineExtras subscriptions release what they hold after their lock")
struct ReleaseOutsideTheLockTests {
    @Test(arguments: ownSubscriptions)
    fileprivate func aSubscriberThatCancelsFromItsDeinitIsReleasedSafely(_ live: LiveCase) {
        let sources = LiveSources()
        weak var weakSubscriber: CancelsWhenReleased<Int, ProbeError>?
        var subscription: Subscription?
        do {
            let subscriber = CancelsWhenReleased<Int, ProbeError>()
            live.build(sources).subscribe(subscriber)
            subscription = subscriber.subscription
            weakSubscriber = subscriber
        }
        #expect(weakSubscriber != nil, "only the subscription keeps the subscriber alive")
        subscription?.cancel()  // releases the subscriber, whose deinit cancels again
        #expect(weakSubscriber == nil)
        withExtendedLifetime(sources) {}
    }

    @Test func retryWhenReleasesItsTriggerClosureAfterItsLock() {
        let upstream = PassthroughSubject<Int, ProbeError>()
        let subscriber = TestSubscriber<Int, ProbeError>()
        weak var weakCapture: CancelsOnDeinit?
        do {
            let capture = CancelsOnDeinit()
            weakCapture = capture
            upstream.retry(1) { _ in withExtendedLifetime(capture) { Just(()) } }.subscribe(subscriber)
            capture.subscription = subscriber.subscription
        }
        #expect(weakCapture != nil)
        subscriber.cancel()  // drops the closure, whose capture cancels again as it goes
        #expect(weakCapture == nil)
    }
}
