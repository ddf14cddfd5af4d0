import Combine
import CombineTesting
import Dispatch
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
    @Test func dropsValuesForSubscribersWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(2)  // no demand: dropped, not buffered
        subscriber.request(.max(1))
        subject.send(3)
        #expect(subscriber.values == [1, 3])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func completionReachesSubscribersWithoutDemand() {
        let subject = PassthroughSubject<Int, Failure>()
        let subscriber = TestSubscriber<Int, Failure>(initialDemand: .none)
        subject.subscribe(subscriber)
        subject.send(completion: .failure(Failure(code: 1)))
        subject.send(completion: .finished)
        subject.send(5)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 1)))])
    }

    @Test func lateSubscriberGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func deliversToSubscribersInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var order: [String] = []
        let cancellables = ["a", "b", "c"].map { name in subject.sink { order.append("\(name)\($0)") } }
        subject.send(1)
        #expect(order == ["a1", "b1", "c1"])
        cancellables[1].cancel()
        subject.send(2)
        #expect(order == ["a1", "b1", "c1", "a2", "c2"])
    }

    @Test func cancelRemovesTheSubscriberAndReleasesIt() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let subscriber = TestSubscriber<Int, Never>()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            subscriber.cancel()
            subject.send(2)
            #expect(subscriber.values == [1])
        }
        #expect(weakSubscriber == nil)
    }

    @Test func reentrantSendFromASinkIsDeliveredNested() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let cancellable = subject.sink { value in
            log.append("begin \(value)")
            if value < 3 { subject.send(value + 1) }
            log.append("end \(value)")
        }
        subject.send(1)
        #expect(log == ["begin 1", "begin 2", "begin 3", "end 3", "end 2", "end 1"])
        cancellable.cancel()
    }

    @Test func upstreamSubscriptionsAreAskedOnceSomeoneHasDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests.isEmpty)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        #expect(upstream.requests == [.unlimited])
        upstream.send(4)
        #expect(subscriber.values == [4])
        connection.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test func subjectSubscribedLaterToUpstreamRequestsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let upstream = TestPublisher<Int, Never>()
        let connection = upstream.subscribe(subject)
        #expect(upstream.requests == [.unlimited])
        upstream.send(completion: .finished)
        #expect(subscriber.completion == .finished)
        withExtendedLifetime(connection) {}
    }

    @Test func voidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let cancellable = subject.sink { count += 1 }
        subject.send()
        #expect(count == 1)
        cancellable.cancel()
    }

    @Test func manyThreadsSendingEveryValueArrivesOnceAndCallsNeverOverlap() {
        let subject = PassthroughSubject<Int, Never>()
        let subscribers = (0..<4).map { _ in TestSubscriber<Int, Never>() }
        for subscriber in subscribers {
            subject.subscribe(subscriber)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for value in 0..<1_000 { subject.send(worker * 1_000 + value) }
        }
        for subscriber in subscribers {
            #expect(subscriber.values.count == 8_000)
            #expect(Set(subscriber.values) == Set(0..<8_000))
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func concurrentSubscribeCancelAndSend() {
        let subject = PassthroughSubject<Int, Never>()
        let stable = TestSubscriber<Int, Never>()
        subject.subscribe(stable)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for value in 0..<500 {
                if worker.isMultiple(of: 2) {
                    subject.send(value)
                } else {
                    let transient = TestSubscriber<Int, Never>()
                    subject.subscribe(transient)
                    transient.cancel()
                    #expect(transient.violations.isEmpty)
                }
            }
        }
        subject.send(completion: .finished)
        #expect(stable.values.count == 2_000)
        #expect(stable.completion == .finished)
        #expect(stable.violations.isEmpty)
    }
}

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
    @Test func currentValueGoesOutOnTheFirstRequest() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subject.value = 2
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])
        subject.send(3)  // no demand left: dropped
        subject.value = 4
        // As Apple's: a subscriber that missed a value gets the current one on its next request.
        subscriber.request(.max(1))
        #expect(subscriber.values == [2, 4])
        subject.value = 5
        #expect(subscriber.values == [2, 4])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func valueGetAndSetSends() {
        let subject = CurrentValueSubject<String, Never>("a")
        var values: [String] = []
        let cancellable = subject.sink { values.append($0) }
        subject.value = "b"
        subject.send("c")
        #expect(subject.value == "c")
        #expect(values == ["a", "b", "c"])
        cancellable.cancel()
    }

    @Test func afterCompletionSendsAreIgnored() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.value = 2
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        let late = TestSubscriber<Int, Never>()
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.finished)])
    }

    @Test func optionalValuesIncludingNil() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        var values: [Int?] = []
        let cancellable = subject.sink { values.append($0) }
        subject.value = 1
        subject.value = nil
        #expect(values == [nil, 1, nil])
        cancellable.cancel()
    }
}
