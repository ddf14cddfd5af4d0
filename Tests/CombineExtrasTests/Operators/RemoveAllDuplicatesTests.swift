// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

@testable import CombineExtras

@Suite("removeAllDuplicates")
struct RemoveAllDuplicatesTests {
    @Test func hashableValuesPassOnlyTheFirstTime() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 1, 3, 2, 3, 4].publisher.removeAllDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3, 4])
        #expect(subscriber.completion == .finished)
    }

    @Test func equatableValuesPassOnlyTheFirstTime() {
        struct Point: Equatable { let x: Double }
        let subscriber = TestSubscriber<Double, Never>()
        [Point(x: 1), Point(x: 2.5), Point(x: 1), Point(x: 2.5)].publisher.removeAllDuplicates().map(\.x)
            .subscribe(subscriber)
        #expect(subscriber.values == [1, 2.5])
    }

    @Test func theComparatorDecidesWhatIsTheSame() {
        let subscriber = TestSubscriber<String, Never>()
        ["Ada", "ada", "Grace", "GRACE", "Alan"].publisher
            .removeAllDuplicates { $0.lowercased() == $1.lowercased() }.subscribe(subscriber)
        #expect(subscriber.values == ["Ada", "Grace", "Alan"])
    }

    @Test func theComparatorGetsAnEarlierValueThenTheNewOne() {
        var calls: [[Int]] = []
        _ = [1, 2].publisher.removeAllDuplicates { earlier, new in
            calls.append([earlier, new])
            return false
        }.sink { _ in }
        #expect(calls == [[1, 2]])
    }

    @Test func aDroppedValueIsReplacedByAnotherFromUpstream() {
        // Demand for two values: the repeats in between are dropped without using it up.
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        [5, 5, 5, 6, 7].publisher.removeAllDuplicates().subscribe(subscriber)
        #expect(subscriber.values == [5, 6])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func forwardsTheFailure() {
        let subscriber = TestSubscriber<Int, OperatorFailure>()
        Fail<Int, OperatorFailure>(error: OperatorFailure(code: 2)).prepend(1, 1).removeAllDuplicates()
            .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(OperatorFailure(code: 2)))])
    }

    // As CombineExt's: the values seen belong to the returned publisher, so its subscriptions
    // share them.
    @Test func subscriptionsOfOnePublisherShareTheValuesSeen() {
        let deduplicated = [1, 2, 3].publisher.removeAllDuplicates()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        deduplicated.subscribe(first)
        deduplicated.subscribe(second)
        #expect(first.values == [1, 2, 3])
        #expect(second.values == [])
        #expect(second.completion == .finished)
    }

    @Test func sendsFromManyThreadsLetEachValueThroughOnce() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let received = LockedValue<[Int]>([])
            let cancellable = subject.removeAllDuplicates().sink { value in received.withLock { $0.append(value) } }
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for value in 0..<500 { subject.send(value) }
            }
            #expect(received.withLock { $0.sorted() } == Array(0..<500))
            cancellable.cancel()
        }
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.removeAllDuplicates().eraseToAnyPublisher()
        }
    }
}

@Suite("mapToValue and mapToVoid")
struct MapToValueTests {
    @Test func eachValueBecomesTheConstant() {
        let subscriber = TestSubscriber<String, Never>()
        [1, 2, 3].publisher.mapToValue("x").subscribe(subscriber)
        #expect(subscriber.values == ["x", "x", "x"])
        #expect(subscriber.completion == .finished)
    }

    @Test func eachValueBecomesVoid() {
        let subscriber = TestSubscriber<Void, Never>()
        ["a", "b"].publisher.mapToVoid().subscribe(subscriber)
        #expect(subscriber.values.count == 2)
        #expect(subscriber.completion == .finished)
    }

    @Test func demandAndFailurePassThrough() {
        let subscriber = TestSubscriber<Int, OperatorFailure>(initialDemand: .max(1))
        Fail<String, OperatorFailure>(error: OperatorFailure(code: 3)).prepend("a", "b").mapToValue(7)
            .subscribe(subscriber)
        #expect(subscriber.values == [7])
        #expect(subscriber.violations.isEmpty)
        subscriber.request(.max(5))
        #expect(subscriber.events.last == .completion(.failure(OperatorFailure(code: 3))))
    }

    @Test func contract() {
        expectOperatorContract(sending: 1, failure: OperatorFailure(code: 9)) { upstream, _ in
            upstream.mapToVoid().mapToValue(2).eraseToAnyPublisher()
        }
    }
}
