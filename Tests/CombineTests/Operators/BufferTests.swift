import Combine
import CombineTesting
import Testing

private struct Full: Error, Equatable {}

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
        #expect(upstream.requests == [.max(2), .max(1), .max(1)])
        upstream.send(4)
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

    @Test func customErrorFailsWhenFull() {
        let upstream = TestPublisher<Int, Full>()
        let subscriber = TestSubscriber<Int, Full>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .keepFull, whenFull: .customError { Full() }).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.events == [.subscription, .completion(.failure(Full()))])
    }

    @Test func finishedWaitsForTheBufferToDrain() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        [1, 2, 3].publisher.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(2))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }
}
