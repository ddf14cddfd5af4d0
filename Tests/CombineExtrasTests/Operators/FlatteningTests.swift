// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

/// What `flatMapLatest` and `concatMap` have in common: one inner publisher runs at a time.
@Suite("flatMapLatest and concatMap")
struct FlatteningTests {
    enum Operator: String, CaseIterable, CustomTestStringConvertible {
        case flatMapLatest
        case concatMap

        var testDescription: String { rawValue }

        func apply<Upstream: Publisher, Inner: Publisher>(
            to upstream: Upstream, _ transform: @escaping (Upstream.Output) -> Inner
        ) -> AnyPublisher<Inner.Output, Upstream.Failure> where Inner.Failure == Upstream.Failure {
            switch self {
            case .flatMapLatest: upstream.flatMapLatest(transform).eraseToAnyPublisher()
            case .concatMap: upstream.concatMap(transform).eraseToAnyPublisher()
            }
        }

        func apply(to rig: InnerPublisherRig) -> AnyPublisher<String, OperatorFailure> {
            apply(to: rig.outer, rig.inner)
        }
    }

    @Test(arguments: Operator.allCases)
    func finishesOnceTheOuterAndTheLastInnerHaveFinished(_ flattening: Operator) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        flattening.apply(to: rig).subscribe(subscriber)
        rig.outer.send(1)
        rig.outer.send(completion: .finished)
        #expect(subscriber.completion == nil)
        rig.inners[0].send("a")
        rig.inners[0].send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("a"), .completion(.finished)])
    }

    @Test(arguments: Operator.allCases)
    func anInnerFailureFailsItAndCancelsTheOuter(_ flattening: Operator) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        flattening.apply(to: rig).subscribe(subscriber)
        rig.outer.send(1)
        rig.inners[0].send(completion: .failure(OperatorFailure(code: 1)))
        #expect(subscriber.completion == .failure(OperatorFailure(code: 1)))
        #expect(rig.outer.cancelCount == 1)
    }

    @Test(arguments: Operator.allCases)
    func anOuterFailureFailsItAtOnceAndCancelsTheRunningInner(_ flattening: Operator) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        flattening.apply(to: rig).subscribe(subscriber)
        rig.outer.send(1)
        rig.outer.send(completion: .failure(OperatorFailure(code: 2)))
        #expect(subscriber.completion == .failure(OperatorFailure(code: 2)))
        #expect(rig.inners[0].cancelCount == 1)
    }

    @Test(arguments: Operator.allCases)
    func cancelCancelsTheOuterAndTheRunningInner(_ flattening: Operator) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>()
        flattening.apply(to: rig).subscribe(subscriber)
        rig.outer.send(1)
        subscriber.cancel()
        #expect(rig.outer.cancelCount == 1)
        #expect(rig.inners[0].cancelCount == 1)
        #expect(subscriber.completion == nil)
    }

    /// Both hand the running inner the subscriber's outstanding demand and pass later requests
    /// on to it, so the demand an inner leaves unused goes to the next one.
    @Test(arguments: Operator.allCases)
    func demandLeftUnusedByAnInnerGoesToTheNext(_ flattening: Operator) {
        let rig = InnerPublisherRig()
        let subscriber = TestSubscriber<String, OperatorFailure>(initialDemand: .max(3))
        flattening.apply(to: rig).subscribe(subscriber)
        rig.outer.send(1)
        #expect(rig.inners[0].requests == [.max(3)])
        #expect(rig.inners[0].send("a") == .none)
        #expect(rig.inners[0].requests == [.max(3)])
        rig.inners[0].send(completion: .finished)
        rig.outer.send(2)
        #expect(rig.inners[1].requests == [.max(2)])
        rig.inners[1].send("b")
        rig.inners[1].send("c")
        #expect(subscriber.values == ["a", "b", "c"])
    }

    @Test(arguments: Operator.allCases)
    func contract(_ flattening: Operator) {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9), upstreamDemand: .unlimited) {
            upstream, token in
            flattening.apply(to: upstream) { value in
                _ = token
                return Result<Int, OperatorFailure>.Publisher(value)
            }
        }
    }
}
