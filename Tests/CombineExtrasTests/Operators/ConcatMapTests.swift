// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("concatMap")
struct ConcatMapTests {
    @Test func subscribesToEachInnerOnlyAfterThePreviousFinished() {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        rig.outer.concatMap(rig.inner).subscribe(subscriber)
        #expect(rig.outer.requests == [.unlimited])  // a subject's values are not dropped meanwhile
        rig.outer.send(1)
        rig.outer.send(2)  // arrives while the first inner runs: kept
        #expect(rig.inners.count == 2)
        #expect(rig.inners[0].subscriptionCount == 1)
        #expect(rig.inners[1].subscriptionCount == 0)
        rig.inners[0].send("a")
        rig.inners[0].send(completion: .finished)
        #expect(rig.inners[1].subscriptionCount == 1)
        rig.inners[1].send("b")
        #expect(subscriber.values == ["a", "b"])
        #expect(subscriber.violations.isEmpty)
    }

    /// Inner publishers that finish while being subscribed (a `Just`) are started one after
    /// another by one loop, not nested: a long queue of them keeps the stack flat.
    @Test func aLongQueueOfSynchronousInnersKeepsAFlatStack() async {
        await offThePool {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<100_000).publisher.concatMap { Just($0) }.subscribe(subscriber)
            subscriber.request(.unlimited)
            #expect(subscriber.values.count == 100_000)
            #expect(subscriber.values.last == 99_999)
            #expect(subscriber.completion == .finished)
        }
    }

    /// An inner's failure cancels the upstream, so a hot upstream stops feeding a queue
    /// nobody will read; the queued inner publishers and the transform are let go.
    @Test func anInnerFailureCancelsTheUpstreamAndLetsTheQueueGo() {
        let upstream = TestPublisher<Int, OperatorFailure>()
        let failing = TestPublisher<String, OperatorFailure>()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        weak var weakToken: LifetimeToken?
        do {
            let token = LifetimeToken()
            weakToken = token
            upstream.concatMap { [token] value -> AnyPublisher<String, OperatorFailure> in
                _ = token
                return value == 1
                    ? failing.eraseToAnyPublisher()
                    : Just("x").setFailureType(to: OperatorFailure.self).eraseToAnyPublisher()
            }.subscribe(subscriber)
        }
        upstream.send(1)
        upstream.send(2)  // queued behind the running inner
        failing.send(completion: .failure(OperatorFailure(code: 1)))
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.completion == .failure(OperatorFailure(code: 1)))
        #expect(weakToken == nil)
    }

    @Test func keepsTheOrderOfTheUpstreamValuesWithAHotUpstream() {
        let upstream = PassthroughSubject<Int, Never>()
        let delays = TestScheduler<VirtualTime, Never>()
        let subscriber = TestSubscriber<String, Never>()
        upstream
            .concatMap { value in
                // Inner publishers that take longer for smaller values: a merge would reorder.
                ["\(value)a", "\(value)b"].publisher.delay(for: .seconds(10 - value), scheduler: delays)
            }
            .subscribe(subscriber)
        upstream.send(3)
        upstream.send(1)
        upstream.send(2)
        delays.run()
        #expect(subscriber.values == ["3a", "3b", "1a", "1b", "2a", "2b"])
    }

    @Test func finishesOnceTheUpstreamAndEveryInnerHaveFinished() {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        rig.outer.concatMap(rig.inner).subscribe(subscriber)
        rig.outer.send(1)
        rig.outer.send(2)
        rig.outer.send(completion: .finished)
        rig.inners[0].send(completion: .finished)
        #expect(subscriber.completion == nil)
        rig.inners[1].send("b")
        rig.inners[1].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("b"), .completion(.finished)])
    }

    @Test(arguments: [true, false])
    func aFailureDropsTheWaitingInners(innerFails: Bool) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        rig.outer.concatMap(rig.inner).subscribe(subscriber)
        rig.outer.send(1)
        rig.outer.send(2)
        if innerFails {
            rig.inners[0].send(completion: .failure(OperatorFailure(code: 1)))
        } else {
            rig.outer.send(completion: .failure(OperatorFailure(code: 1)))
        }
        #expect(subscriber.completion == .failure(OperatorFailure(code: 1)))
        #expect(rig.inners[1].subscriptionCount == 0)
    }

    @Test func boundedDemandIsNeverExceededAcrossInnerPublishers() {
        let subscriber = TestSubscriber<String, Never>(initialDemand: .max(4))
        ["x", "y"].publisher.concatMap { name in (1...3).publisher.map { "\(name)\($0)" } }.subscribe(subscriber)
        #expect(subscriber.values == ["x1", "x2", "x3", "y1"])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(subscriber.values.count == 5)
        subscriber.request(.unlimited)
        #expect(subscriber.values == ["x1", "x2", "x3", "y1", "y2", "y3"])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }
}
