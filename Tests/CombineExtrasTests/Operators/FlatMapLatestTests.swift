// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("flatMapLatest")
struct FlatMapLatestTests {
    @Test func publishesTheLatestInnerOnlyAndCancelsThePreviousOne() {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        rig.outer.flatMapLatest(rig.inner).subscribe(subscriber)
        rig.outer.send(1)
        rig.inners[0].send("a")
        rig.outer.send(2)
        #expect(rig.inners[0].cancelCount == 1)
        rig.inners[0].send("stale")  // already detached from the cancelled inner
        rig.inners[1].send("b")
        #expect(subscriber.values == ["a", "b"])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesOnceTheOuterAndTheLastInnerHaveFinished() {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        rig.outer.flatMapLatest(rig.inner).subscribe(subscriber)
        rig.outer.send(1)
        rig.outer.send(completion: .finished)
        #expect(subscriber.completion == nil)
        rig.inners[0].send("a")
        rig.inners[0].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("a"), .completion(.finished)])
    }

    @Test func demandLeftByAReplacedInnerGoesToTheNext() {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>(initialDemand: .max(3))
        rig.outer.flatMapLatest(rig.inner).subscribe(subscriber)
        rig.outer.send(1)
        rig.inners[0].send("a")
        rig.outer.send(2)  // replaces the running inner
        #expect(rig.inners[1].requests == [.max(2)])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [1, 2].publisher.flatMapLatest { [$0, $0 * 10, $0 * 100].publisher }.subscribe(subscriber)
        // The second upstream value arrives at once and replaces the first inner publisher,
        // whose last value was waiting for demand.
        #expect(subscriber.values == [1, 10])
        subscriber.request(.max(10))
        #expect(subscriber.values == [1, 10, 2, 20, 200])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }
}
