// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Full: Error, Equatable {}

/// Fails from inside the first request made of its subscription.
private struct FailsWhenAsked: Publisher {
    typealias Output = Int
    typealias Failure = Full

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Full {
        subscriber.receive(subscription: Asked(fail: { subscriber.receive(completion: .failure(Full())) }))
    }

    private final class Asked: Subscription {
        private var fail: (() -> Void)?
        init(fail: @escaping () -> Void) { self.fail = fail }
        func request(_ demand: Subscribers.Demand) { fail.take()?() }
        func cancel() { fail = nil }
    }
}

@Suite("buffer")
struct BufferTests {
    @Test func keepFullPrefetchesAndRefills() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(upstream.requests == [.max(2)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)  // full: dropped
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 2])
        // Apple's asks for as many as the delivery took out of the buffer, in one request.
        #expect(upstream.requests == [.max(2), .max(2)])
        #expect(upstream.send(4) == .max(1))
        #expect(subscriber.values == [1, 2, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func dropOldestKeepsTheNewest() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        subscriber.request(.unlimited)
        #expect(subscriber.values == [3, 4])
        #expect(upstream.requests == [.unlimited])
    }

    /// Apple's buffer cancels the upstream when it overflows with a custom error but delivers
    /// the failure only on the next delivery attempt: here the subscriber's next request.
    @Test func customErrorFailsWhenFullAtTheNextRequest() {
        let upstream = TestPublisher<Int, Full>()
        let subscriber = TestSubscriber<Int, Full>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .keepFull, whenFull: .customError { Full() }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(Full()))])
    }

    /// The failure goes ahead of buffered values once the subscriber's demand is used up.
    @Test func aFailureOvertakesTheValuesBeyondTheDemand() {
        let upstream = TestPublisher<Int, Full>()
        let subscriber = TestSubscriber<Int, Full>(initialDemand: .none)
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        for value in 1...4 { upstream.send(value) }
        subscriber.request(.max(2))
        upstream.send(completion: .failure(Full()))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(Full()))])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2])
    }

    /// A failure sent while the subscriber receives a value: Apple's buffer delivers it at once
    /// and then the rest of the values it had taken out for that request, after the failure.
    /// Nothing reaches a subscriber after its completion here: the values within the demand
    /// come first, then the failure.
    @Test func aFailureDuringADeliveryComesAfterTheDemandedValues() {
        let upstream = TestPublisher<Int, Full>()
        let subscriber = TestSubscriber<Int, Full>(
            initialDemand: .none,
            onValue: { value in
                if value == 1 { upstream.send(completion: .failure(Full())) }
                return .none
            })
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        for value in 1...5 { upstream.send(value) }
        subscriber.request(.max(3))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.failure(Full()))])
    }

    /// An upstream that fails during the buffer's first request: the failure waits until the
    /// subscriber has been handed its subscription.
    @Test func aFailureDuringTheFirstRequestComesAfterTheSubscription() {
        let subscriber = TestSubscriber<Int, Full>(initialDemand: .none)
        FailsWhenAsked().buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(Full()))])
    }

    /// Apple's order: the upstream is asked first, then the subscriber gets the subscription,
    /// and only once the upstream's subscription has arrived.
    @Test func theUpstreamIsAskedBeforeTheSubscriberIsSubscribed() {
        let upstream = TestPublisher<Int, Never>()
        let requestsSeenBySubscriber = LockedValue<[Subscribers.Demand]>([])
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .none, onSubscription: { _ in requestsSeenBySubscriber.withLock { $0 = upstream.requests } })
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        #expect(requestsSeenBySubscriber.current == [.unlimited])
        #expect(upstream.requests == [.unlimited])
    }

    /// `.finished` waits for the buffer to empty and for demand, as Apple's.
    @Test func finishedWaitsForDemand() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    /// A size of zero is accepted, as by Apple's: every value finds the buffer full.
    @Test func sizeZeroKeepsNothing() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        upstream.buffer(size: 0, prefetch: .keepFull, whenFull: .dropOldest).subscribe(subscriber)
        #expect(upstream.requests.isEmpty)
        upstream.send(1)
        upstream.send(2)
        subscriber.request(.max(1))
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    /// Asking for `.none` is not an error for Apple's buffer (its own tests do it from
    /// `receive(_:)`), and a request made during a delivery does not recurse.
    @Test func requestsFromReceiveAddToTheRunningDelivery() {
        let upstream = TestPublisher<Int, Never>()
        let subscription = LockedValue<Subscription?>(nil)
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .none, onSubscription: { subscription.withLock { [s = $0] in $0 = s } },
            onValue: { _ in
                subscription.current?.request(.max(1))
                subscription.current?.request(.none)
                return .none
            })
        upstream.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        for value in 0..<3 { upstream.send(value) }
        subscription.current?.request(.max(1))
        #expect(subscriber.values == [0, 1, 2])
        #expect(upstream.requests == [.max(5), .max(3)])
        #expect(upstream.send(3) == .max(1))
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2), .value(3)])
    }

    /// As Apple's: the buffer empties, then `.finished` waits for a request.
    @Test func finishedWaitsForTheBufferToDrain() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }
}
