import Combine
import CombineTesting
import Dispatch
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("merge, MergeMany")
struct MergeTests {
    @Test func interleavesValuesAndFinishesWhenAllFinish() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        b.send(4)
        #expect(subscriber.completion == nil)
        b.send(completion: .finished)
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func forwardsDemandToEveryUpstreamAndNeverExceedsIt() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        a.merge(with: b).subscribe(subscriber)
        #expect(a.requests == [.max(1)])
        #expect(b.requests == [.max(1)])
        a.send(1)
        b.send(2)  // beyond the demand: held until requested
        #expect(subscriber.values == [1])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func failureCancelsTheOtherUpstreams() {
        let a = TestPublisher<Int, Failure>()
        let b = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>()
        a.merge(with: b).subscribe(subscriber)
        a.send(completion: .failure(Failure(code: 1)))
        #expect(b.cancelCount == 1)
        #expect(subscriber.completion == .failure(Failure(code: 1)))
    }

    @Test func cancelCancelsEveryUpstreamOnce() {
        let a = TestPublisher<Int, Never>()
        let b = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        subscriber.cancel()
        subscriber.cancel()
        #expect(a.cancelCount == 1)
        #expect(b.cancelCount == 1)
    }

    @Test func mergeManyOfSequencesAndOfNothing() {
        let subscriber = TestSubscriber<Int, Never>()
        Publishers.MergeMany([[1, 2].publisher, [3].publisher]).subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)

        let empty = TestSubscriber<Int, Never>()
        Publishers.MergeMany<Just<Int>>([]).subscribe(empty)
        #expect(empty.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantSendFromTheSubscriberIsDeliveredInOrder() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = a.merge(with: b).sink { value in
            received.append(value)
            if value == 1 { b.send(10) }
        }
        a.send(1)
        a.send(2)
        #expect(received == [1, 10, 2])
        cancellable.cancel()
    }

    @Test func concurrentSendersNeverOverlapInTheSubscriber() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        a.merge(with: b).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let subject = worker.isMultiple(of: 2) ? a : b
            for value in 0..<1_000 { subject.send(worker * 1_000 + value) }
        }
        #expect(subscriber.values.count == 8_000)
        #expect(Set(subscriber.values).count == 8_000)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func wideMergesAndTheirChainingOverloads() {
        let j = (1...8).map { Just($0) }
        var results: [[Int]] = []
        _ = j[0].merge(with: j[1], j[2]).collect().sink { results.append($0) }
        _ = j[0].merge(with: j[1], j[2], j[3], j[4], j[5], j[6], j[7]).collect().sink { results.append($0) }
        let chained:
            Publishers.Merge8<Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>, Just<Int>> =
                j[0].merge(with: j[1]).merge(with: j[2]).merge(with: j[3], j[4]).merge(with: j[5], j[6], j[7])
        _ = chained.collect().sink { results.append($0) }
        _ = Publishers.Merge5(j[0], j[1], j[2], j[3], j[4]).merge(with: j[5], j[6], j[7]).collect().sink {
            results.append($0)
        }
        #expect(results == [[1, 2, 3], Array(1...8), Array(1...8), Array(1...8)])
        #expect(Publishers.Merge3(j[0], j[1], j[2]) == Publishers.Merge3(j[0], j[1], j[2]))
    }
}
