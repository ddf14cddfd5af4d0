// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// Many threads at once through the operators that hold state shared between upstreams,
/// subscribers or queues. Each test names its size: threads × iterations (× rounds).
@Suite("Operator stress")
struct OperatorStressTests {
    @Test("merge: 4 senders × 2,000 values, bounded and unlimited demand")
    func merge() async {
        await offThePool {
            let (senders, perSender) = (4, 2_000)
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let unlimited = TestSubscriber<Int, Never>()
            let refilling = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            left.merge(with: right).subscribe(unlimited)
            left.merge(with: right).subscribe(refilling)
            DispatchQueue.concurrentPerform(iterations: senders) { sender in
                let subject = sender.isMultiple(of: 2) ? left : right
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                (side == 0 ? left : right).send(completion: .finished)
            }
            Stress.expectEveryValueInSenderOrder(unlimited.values, senders: senders, perSender: perSender)
            // A subject drops what it is sent while its subscriber has no demand, and the refilling
            // subscriber's demand reaches each subject only after a delivery: some values are
            // legitimately lost here, so only their order is checked. Completeness under paced
            // demand is checked over sources that never drop (`pacedByReturnedDemandEveryValueArrives`).
            Stress.expectSenderOrder(refilling.values, senders: senders, perSender: perSender)
            Stress.expectContractKept(unlimited, completions: 1)
            Stress.expectContractKept(refilling, completions: 1)
        }
    }

    /// Sources that never drop a value (sequences, each asked and emitting on its own global
    /// queue) and a subscriber pacing itself one value at a time by the demand it returns:
    /// every value must arrive, each source's in order, then the completion.
    @Test("merge and zip paced by returned demand: 2 sequences × 2,000 values on their own queues, all arrive")
    func pacedByReturnedDemandEveryValueArrives() async {
        await offThePool {
            let perSender = 2_000
            let left = (0..<perSender).publisher.subscribe(on: DispatchQueue.global())
            let right = (perSender..<2 * perSender).publisher.subscribe(on: DispatchQueue.global())

            let merged = DispatchSemaphore(value: 0)
            let mergeSubscriber: TestSubscriber<Int, Never> = Stress.subscriber(
                signalling: merged, initialDemand: .max(1), onValue: { _ in .max(1) })
            left.merge(with: right).subscribe(mergeSubscriber)
            Stress.wait(for: merged)
            Stress.expectEveryValueInSenderOrder(mergeSubscriber.values, senders: 2, perSender: perSender)
            Stress.expectContractKept(mergeSubscriber, completions: 1)

            let zipped = DispatchSemaphore(value: 0)
            let zipSubscriber: TestSubscriber<(Int, Int), Never> = Stress.subscriber(
                signalling: zipped, initialDemand: .max(1), onValue: { _ in .max(1) })
            left.zip(right).subscribe(zipSubscriber)
            Stress.wait(for: zipped)
            #expect(zipSubscriber.values.map(\.0) == Array(0..<perSender))
            #expect(zipSubscriber.values.map(\.1) == Array(perSender..<2 * perSender))
            Stress.expectContractKept(zipSubscriber, completions: 1)
        }
    }

    @Test("combineLatest: 2 senders × 4,000 values; 3 threads × 50 values racing a completion, 50 rounds")
    func combineLatest() async {
        await offThePool {
            let perSender = 4_000
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let subscriber = TestSubscriber<(Int, Int), Never>()
            left.combineLatest(right).subscribe(subscriber)
            sendFromTwoThreads(into: left, right, count: perSender, finishing: true)
            let values = subscriber.values
            #expect(values.last.map { [$0.0, $0.1] } == [perSender - 1, perSender - 1])
            #expect(values.map(\.0) == values.map(\.0).sorted())
            #expect(values.map(\.1) == values.map(\.1).sorted())
            Stress.expectContractKept(subscriber, completions: 1)

            for _ in 0..<50 {
                let first = PassthroughSubject<Int, Never>()
                let second = PassthroughSubject<Int, Never>()
                let racing = TestSubscriber<(Int, Int), Never>(initialDemand: .max(5), onValue: { _ in .max(1) })
                first.combineLatest(second).subscribe(racing)
                DispatchQueue.concurrentPerform(iterations: 3) { worker in
                    switch worker {
                    case 0: for index in 0..<50 { first.send(index) }
                    case 1: for index in 0..<50 { second.send(index) }
                    default: first.send(completion: .finished)
                    }
                }
                second.send(completion: .finished)
                Stress.expectContractKept(racing, completions: 1)
            }
        }
    }

    @Test("zip: 2 senders × 4,000 values; again with a demand of 1 refilled by a third thread")
    func zip() async {
        await offThePool {
            let perSender = 4_000
            let left = PassthroughSubject<Int, Never>()
            let right = PassthroughSubject<Int, Never>()
            let unlimited = TestSubscriber<(Int, Int), Never>()
            left.zip(right).subscribe(unlimited)
            sendFromTwoThreads(into: left, right, count: perSender, finishing: false)
            left.send(completion: .finished)
            let pairs = unlimited.values
            #expect(pairs.count == perSender)
            #expect(pairs.allSatisfy { $0.0 == $0.1 })
            #expect(pairs.map(\.0) == Array(0..<perSender))
            Stress.expectContractKept(unlimited, completions: 1)

            let leftSource = PassthroughSubject<Int, Never>()
            let rightSource = PassthroughSubject<Int, Never>()
            let refilling = TestSubscriber<(Int, Int), Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            leftSource.zip(rightSource).subscribe(refilling)
            DispatchQueue.concurrentPerform(iterations: 3) { worker in
                switch worker {
                case 0: for index in 0..<perSender { leftSource.send(index) }
                case 1: for index in 0..<perSender { rightSource.send(index) }
                default: for _ in 0..<100 { refilling.request(.max(1)) }
                }
            }
            // Values a subject sent without demand are lost, and each side loses its own (the
            // demand each pair returns reaches both sides at its own moment), so the n-th values of
            // the two sides need not be equal: each side's values arrive once and in order. One
            // side may hold values that could still be paired: zip finishes only once both have.
            rightSource.send(completion: .finished)
            leftSource.send(completion: .finished)
            Stress.expectSenderOrder(refilling.values.map(\.0), senders: 1, perSender: perSender)
            Stress.expectSenderOrder(refilling.values.map(\.1), senders: 1, perSender: perSender)
            Stress.expectContractKept(refilling, completions: 1)
        }
    }

    @Test("flatMap: 4 threads × 400 inner subjects × 10 values, while 4 threads × 400 more inners arrive")
    func flatMap() async {
        await offThePool {
            let (threads, inners, perInner) = (4, 400, 10)
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let unlimited = TestSubscriber<Int, Never>()
            let limited = TestSubscriber<Int, Never>(initialDemand: .max(3), onValue: { _ in .max(1) })
            outer.flatMap { $0 }.subscribe(unlimited)
            outer.flatMap(maxPublishers: .max(2)) { $0 }.subscribe(limited)
            // Subscribed before the race: a send into `outer` that meets another thread's delivery
            // is handed to that thread, so flatMap may subscribe to that inner only after the
            // sender has returned — values sent into it before then are dropped, as a subject does.
            let subscribed = (0..<threads * inners).map { _ in PassthroughSubject<Int, Never>() }
            for subject in subscribed { outer.send(subject) }
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for inner in 0..<inners {
                    let late = PassthroughSubject<Int, Never>()
                    outer.send(late)
                    late.send(completion: .finished)
                    let number = thread * inners + inner
                    for index in 0..<perInner { subscribed[number].send(number * perInner + index) }
                    subscribed[number].send(completion: .finished)
                }
            }
            outer.send(completion: .finished)
            Stress.expectEveryValueInSenderOrder(
                unlimited.values, senders: threads * inners, perSender: perInner)
            Stress.expectSenderOrder(limited.values, senders: threads * inners, perSender: perInner)
            Stress.expectContractKept(unlimited, completions: 1)
            Stress.expectContractKept(limited, completions: 1)
        }
    }

    @Test("switchToLatest: 4 threads × 400 inner subjects × 10 values")
    func switchToLatest() async {
        await offThePool {
            let (threads, inners, perInner) = (4, 400, 10)
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let subscriber = TestSubscriber<Int, Never>()
            outer.switchToLatest().subscribe(subscriber)
            sendInnerSubjects(into: outer, threads: threads, inners: inners, perInner: perInner)
            outer.send(completion: .finished)
            Stress.expectSenderOrder(subscriber.values, senders: threads * inners, perSender: perInner)
            Stress.expectContractKept(subscriber, completions: 1)
        }
    }

    @Test("share: 4 senders × 2,000 values while 4 threads × 400 subscribers join and cancel")
    func share() async {
        await offThePool {
            let (senders, perSender, churners, churn) = (4, 2_000, 4, 400)
            let subject = PassthroughSubject<Int, Never>()
            let shared = subject.share()
            let stable = (0..<3).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in stable { shared.subscribe(subscriber) }
            let transients = LockedValue<[TestSubscriber<Int, Never>]>([])
            DispatchQueue.concurrentPerform(iterations: senders + churners) { worker in
                if worker < senders {
                    for index in 0..<perSender { subject.send(worker * perSender + index) }
                    return
                }
                for _ in 0..<churn {
                    let transient = TestSubscriber<Int, Never>(initialDemand: .max(2))
                    shared.subscribe(transient)
                    transient.cancel()
                    transients.append(transient)
                }
            }
            subject.send(completion: .finished)
            for subscriber in stable {
                Stress.expectEveryValueInSenderOrder(subscriber.values, senders: senders, perSender: perSender)
                Stress.expectContractKept(subscriber, completions: 1)
            }
            #expect(transients.current.count == churners * churn)
            for transient in transients.current {
                Stress.expectContractKept(transient, completions: 0)
            }
        }
    }

    @Test(
        "multicast: 4 senders × 2,000 values while 4 threads × 400 subscribers join and cancel; 3 racing connects, 50 rounds"
    )
    func multicast() async {
        await offThePool {
            let (senders, perSender, churners, churn) = (4, 2_000, 4, 400)
            let subject = PassthroughSubject<Int, Never>()
            let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
            let stable = (0..<3).map { _ in TestSubscriber<Int, Never>() }
            for subscriber in stable { multicast.subscribe(subscriber) }
            let connection = multicast.connect()
            DispatchQueue.concurrentPerform(iterations: senders + churners) { worker in
                if worker < senders {
                    for index in 0..<perSender { subject.send(worker * perSender + index) }
                    return
                }
                for _ in 0..<churn {
                    let transient = TestSubscriber<Int, Never>()
                    multicast.subscribe(transient)
                    transient.cancel()
                    #expect(transient.violations.isEmpty)
                }
            }
            subject.send(completion: .finished)
            for subscriber in stable {
                Stress.expectEveryValueInSenderOrder(subscriber.values, senders: senders, perSender: perSender)
                Stress.expectContractKept(subscriber, completions: 1)
            }
            connection.cancel()

            for _ in 0..<50 {
                let source = PassthroughSubject<Int, Never>()
                let connectable = source.multicast(subject: PassthroughSubject<Int, Never>())
                let subscriber = TestSubscriber<Int, Never>()
                connectable.subscribe(subscriber)
                let connections = LockedValue<[any Cancellable]>([])
                DispatchQueue.concurrentPerform(iterations: 4) { worker in
                    if worker == 0 {
                        for index in 0..<50 { source.send(index) }
                    } else {
                        connections.append(connectable.connect())
                    }
                }
                source.send(completion: .finished)
                for connection in connections.current { connection.cancel() }
                Stress.expectContractKept(subscriber, completions: 1)
            }
        }
    }

    @Test("receive(on:) a serial queue: 4 senders × 2,000 values; 4 threads × 200 subscribe-send-cancel")
    func receiveOnSerialQueue() async {
        await offThePool {
            let (senders, perSender) = (4, 2_000)
            let queue = DispatchQueue(label: "stress.receive-on")
            let subject = PassthroughSubject<Int, Never>()
            let done = DispatchSemaphore(value: 0)
            let subscriber: TestSubscriber<Int, Never> = Stress.subscriber(signalling: done)
            subject.receive(on: queue).subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: senders) { sender in
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            subject.send(completion: .finished)
            Stress.wait(for: done)
            Stress.expectEveryValueInSenderOrder(subscriber.values, senders: senders, perSender: perSender)
            Stress.expectContractKept(subscriber, completions: 1)

            let transients = LockedValue<[TestSubscriber<Int, Never>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for round in 0..<200 {
                    let source = PassthroughSubject<Int, Never>()
                    let transient = TestSubscriber<Int, Never>(initialDemand: .max(3))
                    source.receive(on: queue).subscribe(transient)
                    source.send(thread * 1_000 + round)
                    source.send(thread * 1_000 + round)
                    transient.cancel()
                    source.send(completion: .finished)
                    transients.append(transient)
                }
            }
            queue.sync {}  // deliveries already scheduled have run
            for transient in transients.current {
                #expect(transient.violations.isEmpty)
                #expect(Stress.completions(transient) == 0)
            }
        }
    }

    @Test("debounce on a real queue: 4 senders × 500 values, 20 rounds")
    func debounceOnRealQueue() async {
        await offThePool {
            let (senders, perSender) = (4, 500)
            let queue = DispatchQueue(label: "stress.debounce")
            for _ in 0..<20 {
                let subject = PassthroughSubject<Int, Never>()
                let done = DispatchSemaphore(value: 0)
                let subscriber: TestSubscriber<Int, Never> = Stress.subscriber(signalling: done)
                subject.debounce(for: .microseconds(50), scheduler: queue).subscribe(subscriber)
                DispatchQueue.concurrentPerform(iterations: senders) { sender in
                    for index in 0..<perSender { subject.send(sender * perSender + index) }
                }
                subject.send(completion: .finished)
                Stress.wait(for: done)
                let values = subscriber.values
                #expect(values.count <= senders * perSender)
                #expect(Set(values).count == values.count)
                Stress.expectContractKept(subscriber, completions: 1)
            }
        }
    }

    @Test("@Published: 4 setters × 2,000 values while 4 threads × 400 subscribers join and cancel")
    func published() async {
        await offThePool {
            final class Model: ObservableObject, @unchecked Sendable {
                @Published var value = -1
            }
            let (setters, perSetter, churners, churn) = (4, 2_000, 4, 400)
            let model = Model()
            let stable = TestSubscriber<Int, Never>()
            let willChange = TestSubscriber<Void, Never>()
            model.$value.subscribe(stable)
            model.objectWillChange.subscribe(willChange)
            DispatchQueue.concurrentPerform(iterations: setters + churners) { worker in
                if worker < setters {
                    for index in 0..<perSetter { model.value = worker * perSetter + index }
                    return
                }
                for _ in 0..<churn {
                    let transient = TestSubscriber<Int, Never>(initialDemand: .max(2))
                    model.$value.subscribe(transient)
                    transient.cancel()
                    #expect(transient.violations.isEmpty)
                    #expect(transient.values.count >= 1)  // the current value, on subscription
                }
            }
            #expect(stable.values.first == -1)
            Stress.expectEveryValueInSenderOrder(
                Array(stable.values.dropFirst()), senders: setters, perSender: perSetter)
            Stress.expectContractKept(stable, completions: 0)
            #expect(willChange.values.count == setters * perSetter)
            Stress.expectContractKept(willChange, completions: 0)
        }
    }

    /// Sends `0..<count` into `left` and into `right` from two threads at once, each followed
    /// by its completion when `finishing`.
    private func sendFromTwoThreads(
        into left: PassthroughSubject<Int, Never>,
        _ right: PassthroughSubject<Int, Never>,
        count: Int,
        finishing: Bool
    ) {
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            let subject = side == 0 ? left : right
            for index in 0..<count { subject.send(index) }
            if finishing { subject.send(completion: .finished) }
        }
    }

    /// On each of `threads` threads, `inners` times: a new subject sent into `outer`, then
    /// its own block of `perInner` values, then its completion. Values are numbered so that
    /// each inner subject is one "sender" of `perInner` values for ``Stress``'s checks; some
    /// are lost (see `flatMap()`), so only their order can be checked.
    private func sendInnerSubjects(
        into outer: PassthroughSubject<PassthroughSubject<Int, Never>, Never>,
        threads: Int,
        inners: Int,
        perInner: Int
    ) {
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for inner in 0..<inners {
                let subject = PassthroughSubject<Int, Never>()
                outer.send(subject)
                let base = (thread * inners + inner) * perInner
                for index in 0..<perInner { subject.send(base + index) }
                subject.send(completion: .finished)
            }
        }
    }
}
