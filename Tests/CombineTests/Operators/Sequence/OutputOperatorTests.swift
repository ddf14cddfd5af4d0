// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@Suite("prefix, output(at:), output(in:)")
struct OutputOperatorTests {
    @Test func prefixCancelsUpstreamAfterNValuesAndFinishes() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.cancelCount == 1)
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func prefixZeroFinishesRightAfterTheSubscription() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.cancelCount == 1)
    }

    // Regression (found by the model tests): the subscriber's request from inside
    // `receive(subscription:)` reached a synchronous upstream before the finish, and the
    // empty range let the first value through.
    @Test func emptyRangeOverASynchronousSourcePublishesNothing() {
        // Erased, so that the generic operators run (not `Publishers.Sequence`'s own).
        let source = [1, 2, 3].publisher.eraseToAnyPublisher()
        for publisher in [source.prefix(0), source.output(in: 2..<2)] {
            let subscriber = TestSubscriber<Int, Never>()
            publisher.subscribe(subscriber)
            #expect(subscriber.events == [.subscription, .completion(.finished)])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func outputInRangeSkipsEarlierValues() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        (0..<10).publisher.output(in: 3...5).subscribe(subscriber)
        #expect(subscriber.values == [3])
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(3), .value(4), .value(5), .completion(.finished)])
    }

    @Test func outputAtPublishesOneElement() {
        let subscriber = TestSubscriber<Character, Never>()
        "swift".publisher.output(at: 2).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("i"), .completion(.finished)])
    }

    @Test func prefixLongerThanTheUpstreamFinishesWithIt() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.prefix(5).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }
}
