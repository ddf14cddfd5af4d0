// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// The contract stress matrix: every subject and every operator that can be fed from several
/// threads, under the four shapes that broke promises before (issue 39):
/// - several threads sending into finite demand that a third thread trickles `.max(1)` at a time;
/// - several first subscribers at once;
/// - a cancel racing the sends;
/// - a completion racing the sends.
///
/// A ``TestSubscriber`` checks each call as it comes (a value beyond the demand, overlapping calls,
/// anything after the completion, a second completion); afterwards each sender's values must
/// have arrived in its order and none twice. Threads start from one barrier. The rounds scale
/// down under a sanitizer; CI runs the matrix in debug, in release under ThreadSanitizer and
/// under AddressSanitizer (`.ci/run`).
@Suite("Contract stress matrix")
struct ContractMatrixTests {
    /// Rounds per shape and pipeline.
    static let rounds = runningUnderSanitizer ? 3 : 12
    /// Values each sender sends per round.
    static let perSender = runningUnderSanitizer ? 400 : 2_000

    @Test("senders into finite demand trickled from another thread", arguments: MatrixPipeline.all)
    func trickledDemand(_ pipeline: MatrixPipeline) async {
        await offThePool {
            for _ in 0..<Self.rounds {
                for senders in [2, 3] {
                    let feed = pipeline.make()
                    let done = DispatchSemaphore(value: 0)
                    let subscriber = TestSubscriber<Int, Never>(
                        initialDemand: .max(1), onCompletion: { _ in done.signal() })
                    feed.publisher.subscribe(subscriber)
                    feed.settle()
                    let requests = senders * Self.perSender / 2
                    runOverlapping(threads: senders + 1) { thread in
                        if thread == senders {
                            // A unit at a time, a few between yields: the demand runs out and is
                            // given again and again while the senders send.
                            for index in 0..<requests {
                                subscriber.request(.max(1))
                                if index.isMultiple(of: 16) { sched_yield() }
                            }
                        } else {
                            feed.sendRun(sender: thread, count: Self.perSender)
                        }
                    }
                    feed.finish()
                    // What waits for demand (flatMap's inner value, buffer's values) goes out, and
                    // the completion behind it.
                    subscriber.request(.unlimited)
                    Stress.wait(for: done)
                    Stress.expectContractKept(subscriber, completions: 1)
                    Stress.expectSenderOrder(
                        feed.senderValues(subscriber.values), senders: senders, perSender: Self.perSender)
                }
            }
        }
    }

    @Test("several first subscribers at once", arguments: MatrixPipeline.all)
    func concurrentFirstSubscribers(_ pipeline: MatrixPipeline) async {
        await offThePool {
            let subscribers = 4
            for _ in 0..<Self.rounds * 4 {
                let feed = pipeline.make()
                let done = DispatchSemaphore(value: 0)
                let made = (0..<subscribers).map { _ in
                    TestSubscriber<Int, Never>(onCompletion: { _ in done.signal() })
                }
                runOverlapping(threads: subscribers) { thread in
                    feed.publisher.subscribe(made[thread])
                }
                let upstreamSubscriptions = feed.upstreamSubscriptions()
                if pipeline.sharesUpstream {
                    #expect(upstreamSubscriptions == 1, "\(pipeline): \(upstreamSubscriptions) upstream subscriptions")
                } else {
                    #expect(upstreamSubscriptions == subscribers, "\(pipeline): \(upstreamSubscriptions)")
                }
                feed.sendRun(sender: 0, count: 200)
                feed.finish()
                for _ in 0..<subscribers { Stress.wait(for: done) }
                for subscriber in made {
                    Stress.expectContractKept(subscriber, completions: 1)
                    #expect(feed.senderValues(subscriber.values) == Array(0..<200), "\(pipeline)")
                }
            }
        }
    }

    @Test("a cancel racing the sends", arguments: MatrixPipeline.all)
    func cancelRacingSends(_ pipeline: MatrixPipeline) async {
        await offThePool {
            for round in 0..<Self.rounds {
                let feed = pipeline.make()
                let subscriber = TestSubscriber<Int, Never>(
                    initialDemand: round.isMultiple(of: 2) ? .unlimited : .max(50))
                feed.publisher.subscribe(subscriber)
                feed.settle()
                let senders = 2
                feed.sendRacing(senders: senders, perSender: Self.perSender) { subscriber.cancel() }
                feed.finish()
                feed.settle()
                Stress.expectContractKept(subscriber, completions: 0)
                Stress.expectSenderOrder(
                    feed.senderValues(subscriber.values), senders: senders, perSender: Self.perSender)
            }
        }
    }

    @Test("a completion racing the sends", arguments: MatrixPipeline.all)
    func completionRacingSends(_ pipeline: MatrixPipeline) async {
        await offThePool {
            for round in 0..<Self.rounds {
                let feed = pipeline.make()
                let done = DispatchSemaphore(value: 0)
                let subscriber = TestSubscriber<Int, Never>(
                    initialDemand: round.isMultiple(of: 2) ? .unlimited : .max(50), onCompletion: { _ in done.signal() }
                )
                feed.publisher.subscribe(subscriber)
                feed.settle()
                let senders = 2
                feed.sendRacing(senders: senders, perSender: Self.perSender) { feed.finish() }
                // Values waiting for demand (merge's, flatMap's, buffer's) go out before the completion.
                subscriber.request(.unlimited)
                Stress.wait(for: done)
                feed.settle()
                Stress.expectContractKept(subscriber, completions: 1)
                Stress.expectSenderOrder(
                    feed.senderValues(subscriber.values), senders: senders, perSender: Self.perSender)
            }
        }
    }

    /// For the pipelines that share one upstream subscription: the first subscriber hands its
    /// subscription to a thread already waiting, which cancels it while the connection may still
    /// be being made. Nothing is left connected upstream afterwards.
    @Test(
        "a cancel from another thread during the first connect",
        arguments: MatrixPipeline.all.filter(\.sharesUpstream))
    func cancelDuringFirstConnect(_ pipeline: MatrixPipeline) async {
        await offThePool {
            for _ in 0..<Self.rounds * 8 {
                let feed = pipeline.make()
                let handed = LockedValue<Subscription?>(nil)
                let ready = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                let canceller = Thread {
                    ready.wait()
                    handed.current?.cancel()
                    done.signal()
                }
                canceller.start()
                feed.publisher.subscribe(
                    AnySubscriber<Int, Never>(receiveSubscription: { subscription in
                        handed.set(subscription)
                        ready.signal()
                        subscription.request(.unlimited)
                    }))
                Stress.wait(for: done)
                feed.settle()
                #expect(feed.liveUpstreamSubscriptions() == 0, "\(pipeline)")
            }
        }
    }

    @Test("values: two threads send 100,000 values into a subject that a for-await loop reads")
    func valuesFedByTwoThreads() async {
        let passthrough = UncheckedSendable(PassthroughSubject<Int, Never>())
        await Self.readValues(
            of: passthrough.value.eraseToAnyPublisher(), send: { passthrough.value.send($0) },
            finish: { passthrough.value.send(completion: .finished) })
        let current = UncheckedSendable(CurrentValueSubject<Int, Never>(-1))
        await Self.readValues(
            of: current.value.eraseToAnyPublisher(), send: { current.value.send($0) },
            finish: { current.value.send(completion: .finished) })
    }

    /// Two threads `send` 100,000 values (a fifth under a sanitizer, unless the environment sets
    /// `STRESS_FULL_LENGTH`) while a `for await` loop over the subject's `values` reads them,
    /// asking for one at a time.
    static func readValues(
        of subject: AnyPublisher<Int, Never>, send: @escaping @Sendable (Int) -> Void,
        finish: @escaping @Sendable () -> Void
    ) async {
        let fullLength = ProcessInfo.processInfo.environment["STRESS_FULL_LENGTH"] != nil
        let total = runningUnderSanitizer && !fullLength ? 20_000 : 100_000
        let values = UncheckedSendable(subject.values)
        let reader = Task {
            var received: [Int] = []
            for await value in values.value where value >= 0 { received.append(value) }
            return received
        }
        // Let the loop make its first request, so that the sends meet a waiting iterator.
        try? await Task.sleep(for: .milliseconds(20))
        let senders = 2
        let perSender = total / senders
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            Thread {
                runOverlapping(threads: senders) { sender in
                    for index in 0..<perSender { send(sender * perSender + index) }
                }
                finish()
                finished.resume()
            }.start()
        }
        let received = await reader.value
        #expect(received.count <= total)
        Stress.expectSenderOrder(received, senders: senders, perSender: perSender)
    }
}

/// A pipeline of the matrix: the sources it reads and the publisher a subscriber attaches to.
struct MatrixPipeline: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// What the senders send into.
    enum Source: Sendable {
        /// One `PassthroughSubject`.
        case passthrough
        /// One `CurrentValueSubject` holding `-1` at first.
        case currentValue
        /// Two `PassthroughSubject`s: even senders send into the first, odd ones into the second.
        case two
    }

    let name: String
    let source: Source
    /// Whether subscribers share one upstream subscription (`share`, `autoconnect`).
    let sharesUpstream: Bool
    let build: @Sendable (MatrixFeed.Sources) -> AnyPublisher<Int, Never>

    var testDescription: String { name }
    var description: String { name }

    func make() -> MatrixFeed { MatrixFeed(source: source, build: build) }

    static func op(
        _ name: String, source: Source = .passthrough, shares: Bool = false,
        _ build: @escaping @Sendable (MatrixFeed.Sources) -> AnyPublisher<Int, Never>
    ) -> MatrixPipeline {
        MatrixPipeline(name: name, source: source, sharesUpstream: shares, build: build)
    }

    static let all: [MatrixPipeline] = [
        .op("PassthroughSubject") { $0.first },
        .op("CurrentValueSubject", source: .currentValue) { $0.first },
        .op("map") { $0.first.map { $0 }.eraseToAnyPublisher() },
        .op("filter") { $0.first.filter { _ in true }.eraseToAnyPublisher() },
        .op("compactMap") { $0.first.compactMap { $0 }.eraseToAnyPublisher() },
        .op("removeDuplicates") { $0.first.removeDuplicates().eraseToAnyPublisher() },
        .op("share", shares: true) { $0.first.share().eraseToAnyPublisher() },
        .op("CurrentValueSubject.share", source: .currentValue, shares: true) {
            $0.first.share().eraseToAnyPublisher()
        },
        .op("multicast(subject:).autoconnect()", shares: true) {
            $0.first.multicast(subject: PassthroughSubject()).autoconnect().eraseToAnyPublisher()
        },
        .op("makeConnectable().autoconnect()", shares: true) {
            $0.first.makeConnectable().autoconnect().eraseToAnyPublisher()
        },
        .op("merge", source: .two) { $0.first.merge(with: $0.second).eraseToAnyPublisher() },
        .op("flatMap") { $0.first.flatMap { Just($0) }.eraseToAnyPublisher() },
        .op("switchToLatest") { $0.first.map { Just($0) }.switchToLatest().eraseToAnyPublisher() },
        .op("buffer") {
            $0.first.buffer(size: 64, prefetch: .byRequest, whenFull: .dropNewest).eraseToAnyPublisher()
        },
        .op("prefix(untilOutputFrom:)") {
            $0.first.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).eraseToAnyPublisher()
        },
        .op("receive(on:)") { $0.first.receive(on: $0.queue).eraseToAnyPublisher() },
        .op("delay") { $0.first.delay(for: .zero, scheduler: $0.queue).eraseToAnyPublisher() },
        .op("subscribe(on:)") { $0.first.subscribe(on: $0.queue).eraseToAnyPublisher() },
    ]
}

/// One round's sources and the pipeline built on them. Sender `s` sends
/// `s * count ..< (s + 1) * count`, in order.
final class MatrixFeed: @unchecked Sendable {
    /// What a pipeline is built on: the sources (the first counts the subscriptions it
    /// receives) and the queue of the scheduling operators.
    struct Sources {
        let first: AnyPublisher<Int, Never>
        let second: AnyPublisher<Int, Never>
        let queue: DispatchQueue
    }

    private let passthrough = PassthroughSubject<Int, Never>()
    private let current = CurrentValueSubject<Int, Never>(-1)
    private let second = PassthroughSubject<Int, Never>()
    private let source: MatrixPipeline.Source
    private let queue = DispatchQueue(label: "contract-matrix")
    private let subscriptionCount = LockedValue(0)
    private let cancelCount = LockedValue(0)
    let publisher: AnyPublisher<Int, Never>

    init(source: MatrixPipeline.Source, build: (Sources) -> AnyPublisher<Int, Never>) {
        self.source = source
        let count = subscriptionCount
        let cancels = cancelCount
        let first: AnyPublisher<Int, Never> =
            source == .currentValue ? current.eraseToAnyPublisher() : passthrough.eraseToAnyPublisher()
        let counted = first.handleEvents(
            receiveSubscription: { _ in count.increment() }, receiveCancel: { cancels.increment() })
        publisher = build(
            Sources(first: counted.eraseToAnyPublisher(), second: second.eraseToAnyPublisher(), queue: queue))
    }

    /// Sends sender `sender`'s `count` values, in order.
    func sendRun(sender: Int, count: Int) {
        let start = sender * count
        for value in start..<(start + count) {
            switch source {
            case .passthrough: passthrough.send(value)
            case .currentValue: current.send(value)
            case .two: (sender.isMultiple(of: 2) ? passthrough : second).send(value)
            }
        }
    }

    /// `senders` threads send `perSender` values each while another thread, a moment after
    /// they start, does `end` (a cancel or a completion).
    func sendRacing(senders: Int, perSender: Int, _ end: @escaping @Sendable () -> Void) {
        runOverlapping(threads: senders + 1) { thread in
            if thread == senders {
                for _ in 0..<(perSender / 8) { sched_yield() }
                end()
            } else {
                self.sendRun(sender: thread, count: perSender)
            }
        }
    }

    /// Completes every source.
    func finish() {
        passthrough.send(completion: .finished)
        current.send(completion: .finished)
        second.send(completion: .finished)
    }

    /// The subscriptions the first source has received, once the scheduling operators' hops
    /// have run.
    func upstreamSubscriptions() -> Int {
        settle()
        return subscriptionCount.current
    }

    /// The first source's subscriptions not cancelled, once the scheduling operators' hops have
    /// run.
    func liveUpstreamSubscriptions() -> Int {
        settle()
        return subscriptionCount.current - cancelCount.current
    }

    /// Waits until what the scheduling operators handed to their queue has run (a
    /// subscription, a request and what those scheduled in turn).
    func settle() {
        for _ in 0..<3 { queue.sync {} }
    }

    /// The values a subscriber got, less the current-value subject's initial `-1`.
    func senderValues(_ values: [Int]) -> [Int] { values.filter { $0 >= 0 } }
}
