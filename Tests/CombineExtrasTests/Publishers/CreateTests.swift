// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Create: a publisher driven by a closure, through a demand buffer")
struct CreateTests {
    enum MyError: Error, Equatable { case failed }

    /// The `create` snippet of the team's scenarios document (docs/SCENARIOS.md §7), as written
    /// there.
    @Test func scenarioSnippetRunsAsWritten() {
        let cleanups = LockedValue(0)
        let cleanup = { cleanups.increment() }
        let received = LockedValue<[String]>([])
        let completion = LockedValue<Subscribers.Completion<MyError>?>(nil)

        let cancellable = AnyPublisher<String, MyError>.create { subscriber in
            subscriber.send("Hello")
            subscriber.send("World!")
            subscriber.send(completion: .failure(.failed))
            return AnyCancellable { cleanup() }
        }
        .sink(receiveCompletion: { completion.set($0) }, receiveValue: { received.append($0) })

        #expect(received.current == ["Hello", "World!"])
        #expect(completion.current == .failure(.failed))
        #expect(cleanups.current == 1)
        cancellable.cancel()
        #expect(cleanups.current == 1)
    }

    @Test func valuesAndCompletionArriveInOrder() {
        let subscriber = TestSubscriber<Int, ProbeError>()
        Publishers.Create<Int, ProbeError> { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        #expect(subscriber.violations == [])
    }

    @Test func initialiserAndCreateBuildTheSamePublisher() {
        let first = TestSubscriber<String, Never>()
        AnyPublisher<String, Never> { subscriber in
            subscriber.send("init")
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        .subscribe(first)
        #expect(first.events == [.subscription, .value("init"), .completion(.finished)])
    }

    @Test func theClosureRunsOncePerSubscriptionWhenSubscribed() {
        let runs = LockedValue(0)
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            runs.increment()
            subscriber.send(runs.current)
            return AnyCancellable {}
        }
        #expect(runs.current == 0)
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(first)
        #expect(runs.current == 1)
        publisher.subscribe(second)
        #expect(runs.current == 2)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }

    @Test func theClosureRunsAfterTheSubscriberHasItsSubscriptionAndDemand() {
        let demandSeen = LockedValue<Bool?>(nil)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.Create<Int, Never> { handle in
            demandSeen.set(subscriber.subscriptionCount == 1 && subscriber.outstandingDemand == .max(1))
            handle.send(1)
            // Delivered at once: the subscriber had asked for it.
            demandSeen.withLock { $0 = ($0 ?? false) && subscriber.values == [1] }
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(demandSeen.current == true)
    }

    @Test func valuesBeyondTheDemandWaitInOrderAndTheCompletionWaitsBehindThem() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        Publishers.Create<Int, Never> { subscriber in
            for value in 1...4 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(5))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(subscriber.violations == [])
    }

    @Test func aFailureWaitsBehindTheBufferedValuesToo() {
        let subscriber = TestSubscriber<Int, ProbeError>(initialDemand: .none)
        Publishers.Create<Int, ProbeError> { subscriber in
            subscriber.send(1)
            subscriber.send(2)
            subscriber.send(completion: .failure(ProbeError(code: 7)))
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(ProbeError(code: 7)))])
        #expect(subscriber.violations == [])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { $0 < 3 ? .max(1) : .none })
        Publishers.Create<Int, Never> { subscriber in
            for value in 1...5 { subscriber.send(value) }
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.violations == [])
    }

    @Test func aKeptSubscriberSendsLater() {
        let producer = Producer()
        let subscriber = TestSubscriber<Int, Never>()
        producer.start(subscriber)
        #expect(subscriber.values == [])
        producer.sender.send(1)
        producer.sender.send(2)
        producer.sender.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func sendsAfterTheCompletionAreIgnored() {
        let subscriber = TestSubscriber<Int, ProbeError>()
        Publishers.Create<Int, ProbeError> { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            subscriber.send(2)
            subscriber.send(completion: .failure(ProbeError()))
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func cancelCancelsTheCleanupOnceAndStopsDelivery() {
        let producer = Producer()
        let subscriber = TestSubscriber<Int, Never>()
        producer.start(subscriber)
        producer.sender.send(1)
        subscriber.cancel()
        #expect(producer.cleanups.current == 1)
        subscriber.cancel()
        producer.sender.send(2)
        producer.sender.send(completion: .finished)
        #expect(producer.cleanups.current == 1)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancelDropsTheBufferedValues() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.Create<Int, Never> { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func theCompletionCancelsTheCleanupOnceEvenWhenSentBeforeItWasReturned() {
        let cleanups = LockedValue(0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Publishers.Create<Int, Never> { subscriber in
            subscriber.send(1)
            subscriber.send(completion: .finished)
            return AnyCancellable { cleanups.increment() }
        }
        .subscribe(subscriber)
        // The producer has finished: its clean-up runs though a value still waits for demand.
        #expect(cleanups.current == 1)
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(cleanups.current == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func aLaterCompletionCancelsTheCleanupOnce() {
        let producer = Producer()
        let subscriber = TestSubscriber<Int, Never>()
        producer.start(subscriber)
        #expect(producer.cleanups.current == 0)
        producer.sender.send(completion: .finished)
        #expect(producer.cleanups.current == 1)
        producer.sender.send(completion: .finished)
        subscriber.cancel()
        #expect(producer.cleanups.current == 1)
    }

    @Test func aSubscriberThatCancelsOnSubscriptionNeverRunsTheClosure() {
        let runs = LockedValue(0)
        let subscriber = TestSubscriber<Int, Never>(onSubscription: { $0.cancel() })
        Publishers.Create<Int, Never> { _ in
            runs.increment()
            return AnyCancellable {}
        }
        .subscribe(subscriber)
        #expect(runs.current == 0)
        #expect(subscriber.events == [.subscription])
    }

    @Test func aSubscriberThatCancelsFromReceiveGetsNothingMore() {
        let cleanups = LockedValue(0)
        let stopper = StopAfterFirst()
        Publishers.Create<Int, Never> { handle in
            for value in 1...3 { handle.send(value) }
            handle.send(completion: .finished)
            return AnyCancellable { cleanups.increment() }
        }
        .subscribe(stopper)
        #expect(stopper.received.current == [1])
        #expect(stopper.completions.current == 0)
        #expect(cleanups.current == 1)
    }

    /// A value sent from inside `receive(_:)` with demand left is delivered at once, nested,
    /// as a subject's is in Apple's Combine (the serial-delivery engine's rule); one sent
    /// without demand waits, and the demand returned from that `receive(_:)` delivers it from
    /// the running loop: pacing one value at a time keeps a flat stack.
    @Test(arguments: [(Subscribers.Demand.unlimited, 100, 100), (.max(1), 10_000, 1)])
    func valuesSentFromInsideReceiveKeepTheirOrder(_ demand: Subscribers.Demand, count: Int, depth expected: Int) async
    {
        await offThePool {
            let producer = Producer()
            let depth = LockedValue(0)
            let maxDepth = LockedValue(0)
            let subscriber = TestSubscriber<Int, Never>(
                initialDemand: demand,
                onValue: { value in
                    depth.increment()
                    maxDepth.withLock { $0 = Swift.max($0, depth.current) }
                    if value < count { producer.sender.send(value + 1) }
                    depth.withLock { $0 -= 1 }
                    return demand == .unlimited ? .none : .max(1)
                })
            producer.start(subscriber)
            producer.sender.send(1)
            #expect(subscriber.values == Array(1...count))
            #expect(maxDepth.current == expected)
            #expect(subscriber.violations == [])
        }
    }

    @Test(arguments: [Subscribers.Demand.unlimited, .max(1)])
    func sendsFromManyThreadsAreSerialisedAndKeepEachThreadsOrder(_ demand: Subscribers.Demand) async {
        await offThePool {
            let producer = Producer()
            let subscriber = TestSubscriber<Int, Never>(
                initialDemand: demand, onValue: { _ in demand == .unlimited ? .none : .max(1) })
            producer.start(subscriber)
            let sender = producer.sender
            let threads = 8
            let perThread = 500
            runOverlapping(threads: threads) { thread in
                for step in 0..<perThread { sender.send(thread * perThread + step) }
            }
            sender.send(completion: .finished)
            expectEachThreadsValuesInOrder(subscriber.values, threads: threads, perThread: perThread)
            #expect(subscriber.completion == .finished)
            #expect(subscriber.violations == [])
        }
    }

    @Test func demandFromAnotherThreadWhileSendingNeverExceedsIt() async {
        await offThePool {
            let producer = Producer()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            producer.start(subscriber)
            let sender = producer.sender
            runOverlapping(threads: 2) { side in
                if side == 0 {
                    for value in 0..<2_000 { sender.send(value) }
                } else {
                    for _ in 0..<1_000 { subscriber.request(.max(1)) }
                }
            }
            #expect(subscriber.values == Array(0..<1_000))
            #expect(subscriber.violations == [])
        }
    }

    @Test(arguments: [false, true])
    func everythingIsReleasedAfterTheEnd(_ byCancel: Bool) {
        let handle = LockedValue<Publishers.Create<Int, Never>.Subscriber?>(nil)
        expectReleasedAfterEnd(
            byCancel: byCancel,
            attach: { (subscriber: TestSubscriber<Int, Never>, probe) in
                Publishers.Create<Int, Never> { subscriber in
                    handle.set(subscriber)
                    return AnyCancellable { probe.pass(()) }
                }
                .subscribe(subscriber)
            },
            drive: { handle.current?.send(1) },
            complete: { handle.current?.send(completion: .finished) },
            letGo: { handle.set(nil) })
    }
}

/// A `Create` publisher's closure that hands its subscriber to the test and counts the
/// clean-ups it returns.
private struct Producer {
    let handle = LockedValue<Publishers.Create<Int, Never>.Subscriber?>(nil)
    let cleanups = LockedValue(0)

    /// What the closure was given.
    var sender: Publishers.Create<Int, Never>.Subscriber { handle.current! }

    /// Subscribes `subscriber` to a `Create` publisher running this producer.
    func start(_ subscriber: TestSubscriber<Int, Never>) {
        let (handle, cleanups) = (handle, cleanups)
        Publishers.Create<Int, Never> { subscriber in
            handle.set(subscriber)
            return AnyCancellable { cleanups.increment() }
        }
        .subscribe(subscriber)
    }
}

/// A subscriber that asks for everything and cancels after the first value.
private final class StopAfterFirst: Subscriber, @unchecked Sendable {
    let received = LockedValue<[Int]>([])
    let completions = LockedValue(0)
    private let subscription = LockedValue<Subscription?>(nil)

    func receive(subscription: Subscription) {
        self.subscription.set(subscription)
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        subscription.current?.cancel()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        completions.increment()
    }
}
