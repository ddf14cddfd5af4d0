// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

// Regression tests for what a hostile user's programs found: stalls, traps, stack overflows,
// races and quadratic costs. Each test failed before its fix. Threaded ones are bounded in
// rounds and start their threads from one barrier; none relies on sleeping for correctness.

/// A subscriber that paces itself the commonest way: one value at a time, asked for by the
/// demand `receive(_:)` returns.
private func pacedSubscriber<Input>() -> TestSubscriber<Input, Never> {
    TestSubscriber(initialDemand: .max(1), onValue: { _ in .max(1) })
}

@Suite("Demand returned from receive(_:) reaches the sources")
struct ReturnedDemandTests {
    /// A pipeline over synchronous sources, and every value it must deliver (as a set when
    /// the interleaving of its sources is not the point).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let expected: [Int]
        let ordered: Bool
        let make: @Sendable () -> AnyPublisher<Int, Never>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "merge", expected: [1, 2, 3, 4, 5, 6], ordered: false) {
            [1, 2, 3].publisher.merge(with: [4, 5, 6].publisher).eraseToAnyPublisher()
        },
        Case(name: "Merge3", expected: [1, 2, 3, 4, 5, 6], ordered: false) {
            [1, 2].publisher.merge(with: [3, 4].publisher, [5, 6].publisher).eraseToAnyPublisher()
        },
        Case(name: "MergeMany", expected: [1, 2, 3, 4, 5, 6], ordered: false) {
            Publishers.MergeMany([1, 2].publisher, [3, 4].publisher, [5, 6].publisher).eraseToAnyPublisher()
        },
        Case(name: "zip", expected: [14, 25, 36], ordered: true) {
            [1, 2, 3].publisher.zip([4, 5, 6].publisher).map { $0 * 10 + $1 }.eraseToAnyPublisher()
        },
        Case(name: "flatMap, inners of two values", expected: [10, 11, 20, 21], ordered: false) {
            [1, 2].publisher.flatMap { [$0 * 10, $0 * 10 + 1].publisher }.eraseToAnyPublisher()
        },
        Case(name: "flatMap(maxPublishers: .max(1))", expected: [10, 11, 20, 21], ordered: true) {
            [1, 2].publisher.flatMap(maxPublishers: .max(1)) { [$0 * 10, $0 * 10 + 1].publisher }
                .eraseToAnyPublisher()
        },
        Case(name: "prefix(untilOutputFrom:)", expected: [1, 2, 3], ordered: true) {
            [1, 2, 3].publisher.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()).eraseToAnyPublisher()
        },
        Case(name: "drop(untilOutputFrom:)", expected: [1, 2, 3], ordered: true) {
            [1, 2, 3].publisher.drop(untilOutputFrom: Just(())).eraseToAnyPublisher()
        },
    ]

    @Test(arguments: cases)
    func everyValueArrivesAndTheStreamFinishes(_ pipeline: Case) {
        let subscriber: TestSubscriber<Int, Never> = pacedSubscriber()
        pipeline.make().subscribe(subscriber)
        if pipeline.ordered {
            #expect(subscriber.values == pipeline.expected)
        } else {
            #expect(subscriber.values.sorted() == pipeline.expected)
        }
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func combineLatestDeliversTheLastCombinationAndFinishes() {
        let subscriber: TestSubscriber<(Int, Int), Never> = pacedSubscriber()
        [1, 2, 3].publisher.combineLatest([4, 5, 6].publisher).subscribe(subscriber)
        #expect(subscriber.values.last.map { [$0.0, $0.1] } == [3, 6])
        #expect(subscriber.values.map(\.0) == subscriber.values.map(\.0).sorted())
        #expect(subscriber.values.map(\.1) == subscriber.values.map(\.1).sorted())
        #expect(subscriber.completion == .finished)
    }
}

@Suite("Future.value in a cancelled task")
struct FutureValueCancellationTests {
    struct Failure: Error, Equatable {}

    @Test func aNeverFailingFutureGivesItsValue() async {
        let future = Future<Int, Never> { $0(.success(42)) }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await future.value
        }
        #expect(await task.value == 42)
    }

    @Test func aNeverFailingFutureFulfilledLaterStillGivesItsValue() async {
        let promise = LockedValue<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await future.value
        }
        promise.withLock { $0 }?(.success(7))
        #expect(await task.value == 7)
    }

    @Test func aThrowingFutureThatHoldsItsValueGivesIt() async throws {
        let future = Future<Int, Failure> { $0(.success(42)) }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await future.value
        }
        #expect(try await task.value == 42)
    }

    @Test func aThrowingFutureWithoutAValueThrowsCancellationError() async {
        let future = Future<Int, Failure> { _ in }
        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await future.value
        }
        await #expect(throws: CancellationError.self) { try await alreadyCancelled.value }

        let cancelledWhileWaiting = Task { try await future.value }
        cancelledWhileWaiting.cancel()
        await #expect(throws: CancellationError.self) { try await cancelledWhileWaiting.value }
    }

    @Test func aThrowingFutureStillThrowsItsOwnFailure() async {
        let future = Future<Int, Failure> { $0(.failure(Failure())) }
        await #expect(throws: Failure()) { try await future.value }
    }
}

/// Requests one more value from inside each `receive(_:)`, as Apple's documentation shows;
/// the first request comes from ``start()``, once the upstream has buffered its values.
private final class RequestingFromReceive: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    private var subscription: Subscription?
    private(set) var count = 0
    private(set) var finished = false

    func receive(subscription: Subscription) {
        self.subscription = subscription
    }

    func start() {
        subscription?.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        count += 1
        subscription?.request(.max(1))
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
        subscription = nil
    }
}

@Suite("A request made from receive(_:) adds demand to the running delivery")
struct RequestFromReceiveTests {
    /// The buffer is full before the first request; then each value's request nested one
    /// more delivery, one stack frame group per buffered value, and overflowed (20,000 values,
    /// or 10,000 through `AnyPublisher`). Here on a 1 MiB stack.
    @Test(arguments: [(20_000, false), (10_000, true)])
    func bufferKeepFullDeliversOnAFlatStack(count: Int, erased: Bool) async {
        await offThePool {
            let delivered = onThread(stackSize: 1 << 20) {
                let subscriber = RequestingFromReceive()
                let buffered = (0..<count).publisher.buffer(size: count, prefetch: .keepFull, whenFull: .dropNewest)
                if erased {
                    buffered.eraseToAnyPublisher().subscribe(subscriber)
                } else {
                    buffered.subscribe(subscriber)
                }
                subscriber.start()
                return [subscriber.count, subscriber.finished ? 1 : 0]
            }
            #expect(delivered == [count, 1])
        }
    }

    @Test func mergeOfTwoSequencesToo() async {
        await offThePool {
            let delivered = onThread(stackSize: 1 << 20) {
                let subscriber = RequestingFromReceive()
                let left = PassthroughSubject<Int, Never>()
                left.merge(with: (0..<10_000).publisher).subscribe(subscriber)
                subscriber.start()
                for value in 0..<10_000 { left.send(value) }
                left.send(completion: .finished)
                return [subscriber.count, subscriber.finished ? 1 : 0]
            }
            #expect(delivered == [20_000, 1])
        }
    }
}

@Suite("A current value's first delivery and a concurrent send are ordered")
struct CurrentValueFirstOfferRaceTests {
    /// 2,000 rounds: a subscriber that has not requested yet; then, from one barrier, one
    /// thread requests `.unlimited` while another sets 1...10. What arrives must be increasing
    /// (no value twice, none older after newer) and end with 10, the last value set. Returns
    /// the rounds that broke that.
    static func racingRounds(
        _ makeSource: () -> (publisher: AnyPublisher<Int, Never>, set: @Sendable (Int) -> Void)
    ) -> [[Int]] {
        var failures: [[Int]] = []
        for _ in 0..<2_000 {
            let (publisher, set) = makeSource()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            publisher.subscribe(subscriber)
            runOverlapping(threads: 2) { side in
                if side == 0 {
                    subscriber.request(.unlimited)
                } else {
                    for value in 1...10 { set(value) }
                }
            }
            let values = subscriber.values
            if values != values.sorted() || Set(values).count != values.count || values.last != 10 {
                failures.append(values)
            }
        }
        return failures
    }

    @Test("CurrentValueSubject: 2,000 rounds of a first request racing ten sends")
    func currentValueSubject() async {
        await offThePool {
            let failures = Self.racingRounds {
                let subject = CurrentValueSubject<Int, Never>(0)
                return (subject.eraseToAnyPublisher(), { subject.value = $0 })
            }
            #expect(failures.isEmpty, "\(failures.count) rounds, e.g. \(failures.prefix(3))")
        }
    }

    final class Model: @unchecked Sendable {
        @Published var value = 0
    }

    @Test("@Published: 2,000 rounds of a first request racing ten sets")
    func published() async {
        await offThePool {
            let failures = Self.racingRounds {
                let model = Model()
                return (model.$value.eraseToAnyPublisher(), { model.value = $0 })
            }
            #expect(failures.isEmpty, "\(failures.count) rounds, e.g. \(failures.prefix(3))")
        }
    }
}

@Suite("Subscribers waiting for a Future")
struct FutureWaitingSubscribersTests {
    @Test func cancelledSubscribersGetNothingAndTheOthersGetTheValueInOrder() {
        let promise = LockedValue<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
        let received = LockedValue<[Int]>([])
        let cancellables = (0..<10).map { index in
            future.sink { value in received.withLock { $0.append(index * 100 + value) } }
        }
        for index in [0, 5, 9, 4] { cancellables[index].cancel() }
        promise.withLock { $0 }?(.success(1))
        #expect(received.withLock { $0 } == [101, 201, 301, 601, 701, 801])
    }

    /// Each cancel removed its subscriber by searching the list: 16,000 took 15 s, and this
    /// count would take minutes. The time limit only guards against that regression; the work
    /// itself takes a fraction of a second (seconds under ThreadSanitizer on a loaded machine,
    /// where one minute was once not enough: the quadratic search would take about ten).
    @Test(.timeLimit(.minutes(3)))
    func oneHundredThousandWaitingSubscribersCancelInLinearTime() {
        // On the pool, not offThePool: the time limit would count the wait for its executor.
        let future = Future<Int, Never> { _ in }
        var cancellables = (0..<100_000).map { _ in future.sink { _ in } }
        for cancellable in cancellables { cancellable.cancel() }
        cancellables.removeAll()
        let late = TestSubscriber<Int, Never>()
        future.subscribe(late)
        #expect(late.values.isEmpty)
    }
}

/// A scheduler that keeps every action until the test runs them, in the order it chooses:
/// it stands for a concurrent queue, or timers that fire out of order.
final class HeldActionsScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = Never

    private let held = LockedValue<[() -> Void]>([])

    var now: VirtualTime { .zero }
    var minimumTolerance: VirtualTime.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        held.withLock { $0.append(action) }
    }

    func schedule(
        after date: VirtualTime, tolerance: VirtualTime.Stride, options: Never?, _ action: @escaping () -> Void
    ) {
        held.withLock { $0.append(action) }
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        held.withLock { $0.append(action) }
        return AnyCancellable {}
    }

    /// The actions held, handed to the threads of a test that runs them (unchecked: each
    /// action is run once, by one thread).
    struct Actions: @unchecked Sendable {
        let all: [() -> Void]
    }

    /// Takes the actions held so far, to run.
    func take() -> Actions {
        held.withLock { actions in
            defer { actions = [] }
            return Actions(all: actions)
        }
    }
}

@Suite("receive(on:) and delay keep one sender's order, one call at a time")
struct ScheduledDeliveryOrderTests {
    enum Operator: String, CaseIterable, Sendable {
        case receiveOn = "receive(on:)"
        case delay = "delay"

        func apply(_ upstream: PassthroughSubject<Int, Never>, on scheduler: HeldActionsScheduler)
            -> AnyPublisher<Int, Never>
        {
            switch self {
            case .receiveOn: upstream.receive(on: scheduler).eraseToAnyPublisher()
            case .delay: upstream.delay(for: .seconds(1), scheduler: scheduler).eraseToAnyPublisher()
            }
        }
    }

    /// The actions run last-scheduled first (as timers firing out of order, or a concurrent
    /// queue, may run them): the values still arrive in order, then the completion.
    @Test(arguments: Operator.allCases)
    func actionsRunInReverseStillDeliverInOrder(_ operation: Operator) {
        let scheduler = HeldActionsScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        operation.apply(subject, on: scheduler).subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        subject.send(completion: .finished)
        for action in scheduler.take().all.reversed() { action() }
        #expect(subscriber.values == [1, 2, 3, 4, 5])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    /// The actions run on two threads at once, from one barrier: calls into the subscriber
    /// must not overlap, and everything arrives in order.
    @Test(arguments: Operator.allCases)
    func actionsRunOnTwoThreadsAtOnceNeverOverlap(_ operation: Operator) async {
        await offThePool {
            for _ in 0..<50 {
                let scheduler = HeldActionsScheduler()
                let subject = PassthroughSubject<Int, Never>()
                let subscriber = TestSubscriber<Int, Never>()
                operation.apply(subject, on: scheduler).subscribe(subscriber)
                for value in 0..<200 { subject.send(value) }
                subject.send(completion: .finished)
                let actions = scheduler.take()
                runOverlapping(threads: 2) { side in
                    for index in stride(from: side, to: actions.all.count, by: 2) { actions.all[index]() }
                }
                #expect(subscriber.values == Array(0..<200))
                #expect(subscriber.completion == .finished)
                #expect(subscriber.violations.isEmpty)
            }
        }
    }

    @Test("receive(on:) a concurrent DispatchQueue and OperationQueue: 20 runs × 2,000 values")
    func realConcurrentSchedulers() async {
        await offThePool {
            let queues: [(String, (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>)] = [
                ("global queue", { $0.receive(on: DispatchQueue.global()).eraseToAnyPublisher() }),
                ("OperationQueue", { $0.receive(on: OperationQueue()).eraseToAnyPublisher() }),
            ]
            for (name, receiving) in queues {
                for _ in 0..<20 {
                    let done = DispatchSemaphore(value: 0)
                    let subject = PassthroughSubject<Int, Never>()
                    let subscriber: TestSubscriber<Int, Never> = Stress.subscriber(signalling: done)
                    receiving(subject).subscribe(subscriber)
                    for value in 0..<2_000 { subject.send(value) }
                    subject.send(completion: .finished)
                    Stress.wait(for: done)
                    #expect(subscriber.values == Array(0..<2_000), "\(name)")
                    Stress.expectContractKept(subscriber, completions: 1)
                }
            }
        }
    }

    @Test("delay on a serial DispatchQueue: 5 runs × 5,000 values 20 µs apart keep their order")
    func delayOnASerialQueue() async {
        await offThePool {
            let queue = DispatchQueue(label: "delay-order")
            for _ in 0..<5 {
                let done = DispatchSemaphore(value: 0)
                let subject = PassthroughSubject<Int, Never>()
                let subscriber: TestSubscriber<Int, Never> = Stress.subscriber(signalling: done)
                subject.delay(for: .microseconds(20), scheduler: queue).subscribe(subscriber)
                for value in 0..<5_000 { subject.send(value) }
                subject.send(completion: .finished)
                Stress.wait(for: done)
                #expect(subscriber.values == Array(0..<5_000))
                Stress.expectContractKept(subscriber, completions: 1)
            }
        }
    }
}

@Suite("flatMap: a request costs what it delivers, not the number of inners")
struct FlatMapRequestCostTests {
    /// 1,000 live inners, each holding one value; 1,000 requests for one value each. Each
    /// inner is asked for one value when it is subscribed and one more when its value has been
    /// delivered: 2,000 requests in all, where passing every request to every inner made
    /// 1,001,000.
    @Test func aThousandRequestsOverAThousandInners() {
        let inners = (0..<1_000).map { _ in TestPublisher<Int, Never>() }
        let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        outer.flatMap { $0 }.subscribe(subscriber)
        for inner in inners { outer.send(inner) }
        for (index, inner) in inners.enumerated() { inner.send(index) }
        #expect(subscriber.values.isEmpty)
        for _ in inners { subscriber.request(.max(1)) }
        #expect(subscriber.values == Array(0..<1_000))
        #expect(inners.reduce(0) { $0 + $1.requests.count } == 2_000)
        #expect(inners.allSatisfy { $0.requests == [.max(1), .max(1)] })
        #expect(subscriber.violations.isEmpty)
    }

    /// A value that goes straight to the subscriber is answered with one more (Apple's
    /// pattern); one that waits for demand is answered with nothing and its inner is asked once
    /// the value has been delivered.
    @Test func aValueDeliveredAtOnceAsksItsInnerForOneMoreByItsAnswer() {
        let inner = TestPublisher<Int, Never>()
        let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        outer.flatMap { $0 }.subscribe(subscriber)
        outer.send(inner)
        #expect(inner.send(1) == .max(1))
        #expect(inner.send(2) == .none)
        #expect(inner.requests == [.max(1)])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1, 2])
        #expect(inner.requests == [.max(1), .max(1)])
    }

    @Test func unlimitedDemandGoesToEveryInnerOnce() {
        let inners = (0..<3).map { _ in TestPublisher<Int, Never>() }
        let outer = PassthroughSubject<TestPublisher<Int, Never>, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        outer.flatMap { $0 }.subscribe(subscriber)
        for inner in inners.prefix(2) { outer.send(inner) }
        subscriber.request(.unlimited)
        subscriber.request(.unlimited)
        outer.send(inners[2])
        #expect(inners.map(\.requests) == [[.max(1), .unlimited], [.max(1), .unlimited], [.unlimited]])
    }
}
