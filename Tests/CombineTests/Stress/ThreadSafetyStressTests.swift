// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// Many threads at once against the thread-safe types (each test names its size: threads ×
/// iterations). Each test checks the outcome (every
/// value exactly once, per-sender order kept, one completion) and that `TestSubscriber`
/// saw no overlapping calls or other contract violations.
@Suite("Subject and Future stress")
struct ThreadSafetyStressTests {
    static let senders = 8
    static let sendsPerSender = 1_000

    @Test("PassthroughSubject: 8 senders × 1,000 values into 4 subscribers")
    func passthroughSubjectManySendersSeveralSubscribers() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let subscribers = (0..<4).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in subscribers { subject.subscribe(subscriber) }
            DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
                for index in 0..<Self.sendsPerSender { subject.send(sender * Self.sendsPerSender + index) }
            }
            subject.send(completion: .finished)
            for subscriber in subscribers {
                Stress.expectEveryValueInSenderOrder(
                    subscriber.values, senders: Self.senders, perSender: Self.sendsPerSender)
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    // A `sink` is called straight through its closure, and the thread that delivered a value
    // gives up the delivering role with one compare-and-swap unless another thread queued
    // events meanwhile: every value must still arrive exactly once, in each sender's order,
    // never two calls at once, and the completion last.
    @Test("PassthroughSubject: 8 senders × 5,000 values into 2 sinks, each value once, never overlapping")
    func passthroughSubjectManySendersIntoSinks() async {
        await offThePool {
            final class Log: @unchecked Sendable {
                let lock = NSLock()
                var values: [Int] = []
                var completions = 0
                var inside = false
                var overlaps = 0
                func enter() { lock.withLock { if inside { overlaps += 1 } else { inside = true } } }
                func leave() { lock.withLock { inside = false } }
            }
            let perSender = 5_000
            let subject = PassthroughSubject<Int, Never>()
            let logs = [Log(), Log()]
            let cancellables = logs.map { log in
                subject.sink(
                    receiveCompletion: { _ in log.lock.withLock { log.completions += 1 } },
                    receiveValue: { value in
                        log.enter()
                        log.lock.withLock { log.values.append(value) }
                        log.leave()
                    })
            }
            DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            subject.send(completion: .finished)
            for log in logs {
                log.lock.withLock {
                    Stress.expectEveryValueInSenderOrder(log.values, senders: Self.senders, perSender: perSender)
                    #expect(log.completions == 1)
                    #expect(log.overlaps == 0)
                }
            }
            withExtendedLifetime(cancellables) {}
        }
    }

    @Test("PassthroughSubject: 8 senders × 1,000 values, bounded demand never exceeded")
    func passthroughSubjectBoundedDemandIsNeverExceededUnderContention() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let bounded = TestSubscriber<Int, Never>(initialDemand: .max(100))
            let refilling = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            subject.subscribe(bounded)
            subject.subscribe(refilling)
            DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
                for index in 0..<Self.sendsPerSender { subject.send(sender * Self.sendsPerSender + index) }
            }
            #expect(bounded.values.count == 100)
            #expect(bounded.violations.isEmpty)
            // A value sent while this subscriber's demand is momentarily used up (its `.max(1)`
            // comes back only when `receive` returns) is dropped, as Apple's subject drops it:
            // what arrives is a subset, still in each sender's order, and never beyond demand.
            let values = refilling.values
            #expect(!values.isEmpty)
            #expect(Set(values).count == values.count)
            for sender in 0..<Self.senders {
                let own = values.filter { $0 / Self.sendsPerSender == sender }
                #expect(own == own.sorted())
            }
            #expect(refilling.violations.isEmpty)
        }
    }

    @Test("CurrentValueSubject: 8 setters × 1,000 values into 4 subscribers")
    func currentValueSubjectManySenders() async {
        await offThePool {
            let subject = CurrentValueSubject<Int, Never>(-1)
            let subscribers = (0..<4).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in subscribers { subject.subscribe(subscriber) }
            DispatchQueue.concurrentPerform(iterations: Self.senders) { sender in
                for index in 0..<Self.sendsPerSender { subject.value = sender * Self.sendsPerSender + index }
            }
            for subscriber in subscribers {
                let values = subscriber.values
                #expect(values.first == -1)
                Stress.expectEveryValueInSenderOrder(
                    Array(values.dropFirst()), senders: Self.senders, perSender: Self.sendsPerSender)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test("PassthroughSubject: 4 senders × 1,000 values while 4 threads × 250 subscribe-send-cancel")
    func subscribeAndCancelWhileOthersSend() async {
        // In a function of its own: the same code in the closure crashes Swift 6.3.1's
        // region-based isolation checker (SendNonSendable, Partition::join).
        await offThePool { subscribeAndCancelWhileOthersSendBlocking() }
    }

    private func subscribeAndCancelWhileOthersSendBlocking() {
        do {
            let subject = PassthroughSubject<Int, Never>()
            let stable = (0..<3).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in stable { subject.subscribe(subscriber) }
            let churned = LockedValue<[TestSubscriber<Int, Never>]>([])
            DispatchQueue.concurrentPerform(iterations: Self.senders) { worker in
                if worker < Self.senders / 2 {
                    for index in 0..<Self.sendsPerSender { subject.send(worker * Self.sendsPerSender + index) }
                } else {
                    for _ in 0..<250 {
                        let transient = TestSubscriber<Int, Never>()
                        subject.subscribe(transient)
                        subject.send(-1)
                        transient.cancel()
                        churned.append(transient)
                    }
                }
            }
            subject.send(completion: .finished)
            for subscriber in stable {
                let values = subscriber.values.filter { $0 >= 0 }
                Stress.expectEveryValueInSenderOrder(values, senders: Self.senders / 2, perSender: Self.sendsPerSender)
                #expect(subscriber.values.count(where: { $0 == -1 }) == 1_000)
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
            #expect(churned.current.count == 1_000)
            for transient in churned.current {
                #expect(transient.completion == nil)  // cancelled before the completion was sent
                #expect(transient.subscriptionCount == 1)
                #expect(transient.violations.isEmpty)
            }
        }
    }

    @Test("PassthroughSubject: 3 senders × 100 values racing a completion, 50 rounds")
    func concurrentSendAndCompletionDeliverOneCompletionLast() async {
        await offThePool {
            for _ in 0..<50 {
                let subject = PassthroughSubject<Int, Never>()
                let subscribers = (0..<3).map { _ in TestSubscriber<Int, Never>() }
                for subscriber in subscribers { subject.subscribe(subscriber) }
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    if worker == 3 {
                        subject.send(completion: .finished)
                    } else {
                        for index in 0..<100 { subject.send(index) }
                    }
                }
                for subscriber in subscribers {
                    let events = subscriber.events
                    #expect(events.last == .completion(.finished))
                    #expect(events.count(where: { if case .completion = $0 { true } else { false } }) == 1)
                    #expect(subscriber.violations.isEmpty)
                }
            }
        }
    }

    @Test("Future: fulfilled while 7 threads × 20 × 2 subscribers arrive, 50 rounds")
    func futureFulfilledWhileSubscribersArrive() async {
        await offThePool {
            for round in 0..<50 {
                let promise = LockedValue<Future<Int, Never>.Promise?>(nil)
                let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
                let subscribers = LockedValue<[TestSubscriber<Int, Never>]>([])
                let waiting = LockedValue<[TestSubscriber<Int, Never>]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { worker in
                    if worker == 0 {
                        promise.current?(.success(round))
                        return
                    }
                    for _ in 0..<20 {
                        let eager = TestSubscriber<Int, Never>()
                        let lazy = TestSubscriber<Int, Never>(initialDemand: .none)
                        future.subscribe(eager)
                        future.subscribe(lazy)
                        subscribers.append(eager)
                        waiting.append(lazy)
                    }
                }
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    for (index, lazy) in waiting.current.enumerated() where index % 4 == worker {
                        lazy.request(.max(1))
                    }
                }
                for subscriber in subscribers.current + waiting.current {
                    #expect(subscriber.events == [.subscription, .value(round), .completion(.finished)])
                    #expect(subscriber.violations.isEmpty)
                }
            }
        }
    }

    @Test("AnyCancellable: cancelled from 8 threads at once, 100 rounds")
    func anyCancellableCancelledFromManyThreadsCancelsUpstreamOnce() async {
        await offThePool {
            for _ in 0..<100 {
                let upstream = TestPublisher<Int, Never>()
                let cancellable = upstream.sink { _ in }
                DispatchQueue.concurrentPerform(iterations: 8) { _ in cancellable.cancel() }
                #expect(upstream.cancelCount == 1)
            }
        }
    }

    @Test(
        "CurrentValueSubject: 4 threads × 200 subscribe-request-cancel while 3 setters and a completion race, 10 rounds"
    )
    func currentValueSubjectChurnRacingCompletion() async {
        await offThePool {
            for _ in 0..<10 {
                let subject = CurrentValueSubject<Int, Never>(0)
                let stable = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
                subject.subscribe(stable)
                let transients = LockedValue<[TestSubscriber<Int, Never>]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { worker in
                    switch worker {
                    case 0..<3:
                        for index in 0..<200 { subject.send(index) }
                    case 3:
                        subject.send(completion: .finished)
                    default:
                        for _ in 0..<200 {
                            let transient = TestSubscriber<Int, Never>(initialDemand: .none)
                            subject.subscribe(transient)
                            transient.request(.max(2))
                            transient.cancel()
                            transients.append(transient)
                        }
                    }
                }
                #expect(stable.violations.isEmpty)
                #expect(stable.completion == .finished)
                #expect(stable.events.count { if case .completion = $0 { true } else { false } } == 1)
                for transient in transients.current {
                    #expect(transient.violations.isEmpty)
                    #expect(transient.values.count <= 2)
                }
            }
        }
    }

    @Test("Future: promise fulfilled from 4 threads at once while 4 threads subscribe, 100 rounds")
    func futureFulfilledFromManyThreads() async {
        await offThePool {
            for _ in 0..<100 {
                let promise = LockedValue<Future<Int, Never>.Promise?>(nil)
                let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
                let subscribers = LockedValue<[TestSubscriber<Int, Never>]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { worker in
                    if worker < 4 {
                        promise.current?(.success(worker))
                    } else {
                        let subscriber = TestSubscriber<Int, Never>()
                        future.subscribe(subscriber)
                        subscribers.append(subscriber)
                    }
                }
                let values = Set(subscribers.current.flatMap(\.values))
                #expect(values.count == 1)  // one promise call won; every subscriber saw its value
                for subscriber in subscribers.current {
                    #expect(subscriber.values.count == 1)
                    #expect(subscriber.completion == .finished)
                    #expect(subscriber.violations.isEmpty)
                }
            }
        }
    }
}
