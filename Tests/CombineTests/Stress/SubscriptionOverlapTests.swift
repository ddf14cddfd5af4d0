// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// Every operator and source that can call its subscriber from another thread, with a
/// subscriber that asks for everything inside `receive(subscription:)` (as `sink` does) and then
/// stays in that call for a while. No other call may reach the subscriber until
/// `receive(subscription:)` has returned: calls into one subscriber never overlap
/// (ARCHITECTURE.md, "Serial delivery"). `TestSubscriber` records any call that overlaps one on
/// another thread.
@Suite("No call overlaps receive(subscription:)")
struct SubscriptionOverlapTests {
    /// One row: a publisher of `Int`s that delivers from another thread soon after it is asked,
    /// and what to start while the subscriber is inside `receive(subscription:)`.
    struct Row: CustomStringConvertible, Sendable {
        /// Started inside `receive(subscription:)`; `delivered` says when an event has arrived.
        typealias During = @Sendable (_ delivered: @escaping @Sendable () -> Bool) -> Void

        let description: String
        let make: @Sendable () -> (publisher: AnyPublisher<Int, Never>, during: During)

        init(_ name: String, _ publisher: @escaping @Sendable () -> AnyPublisher<Int, Never>) {
            description = name
            make = { (publisher(), { _ in }) }
        }

        init(
            _ name: String,
            make: @escaping @Sendable () -> (publisher: AnyPublisher<Int, Never>, during: During)
        ) {
            description = name
            self.make = make
        }
    }

    /// A value, then nothing and no completion: the rows whose operator acts on a timer.
    static func oneThenSilence() -> AnyPublisher<Int, Never> {
        Just(1).append(Empty(completeImmediately: false)).eraseToAnyPublisher()
    }

    static let queue = DispatchQueue(label: "overlap.serial")

    /// A subject that another thread sends into while the subscriber is in
    /// `receive(subscription:)`: a value every 100 µs until one is delivered (or a second has
    /// passed), so that some arrive once every stage has subscribed upstream.
    static func sentFromAnotherThread(
        _ name: String, _ stage: @escaping @Sendable (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>
    ) -> Row {
        Row(name) {
            let subject = PassthroughSubject<Int, Never>()
            let box = UncheckedBox(subject)
            return (
                stage(subject),
                { delivered in
                    DispatchQueue.global().async {
                        for value in 0..<10_000 where !delivered() {
                            box.value.send(value)
                            usleep(100)
                        }
                    }
                }
            )
        }
    }

    static let rows: [Row] = [
        Row("receive(on:) a serial queue") { Just(1).receive(on: queue).eraseToAnyPublisher() },
        Row("receive(on:) a global queue") { Just(1).receive(on: DispatchQueue.global()).eraseToAnyPublisher() },
        Row("receive(on:) an OperationQueue") { Just(1).receive(on: OperationQueue()).eraseToAnyPublisher() },
        Row("delay on a serial queue") {
            Just(1).delay(for: .milliseconds(1), scheduler: queue).eraseToAnyPublisher()
        },
        Row("delay on a global queue") {
            Just(1).delay(for: .zero, scheduler: DispatchQueue.global()).eraseToAnyPublisher()
        },
        Row("timeout") {
            Empty<Int, Never>(completeImmediately: false).timeout(.milliseconds(1), scheduler: queue)
                .eraseToAnyPublisher()
        },
        Row("collect(.byTime)") {
            oneThenSilence().collect(.byTime(queue, .milliseconds(1))).map(\.count).eraseToAnyPublisher()
        },
        Row("collect(.byTimeOrCount)") {
            oneThenSilence().collect(.byTimeOrCount(queue, .milliseconds(1), 5)).map(\.count).eraseToAnyPublisher()
        },
        Row("debounce") { oneThenSilence().debounce(for: .milliseconds(1), scheduler: queue).eraseToAnyPublisher() },
        Row("subscribe(on:) a serial queue") { Just(1).subscribe(on: queue).eraseToAnyPublisher() },
        Row("Future fulfilled on another thread") {
            Future<Int, Never> { promise in
                nonisolated(unsafe) let promise = promise  // not Sendable, as Apple's
                DispatchQueue.global().async { promise(.success(1)) }
            }
            .eraseToAnyPublisher()
        },
        sentFromAnotherThread("PassthroughSubject") { $0.eraseToAnyPublisher() },
        sentFromAnotherThread("merge") { $0.merge(with: Empty(completeImmediately: false)).eraseToAnyPublisher() },
        sentFromAnotherThread("zip") {
            $0.zip(Just(0).append(Empty(completeImmediately: false))).map(\.0).eraseToAnyPublisher()
        },
        sentFromAnotherThread("combineLatest") { $0.combineLatest(Just(0)).map(\.0).eraseToAnyPublisher() },
        sentFromAnotherThread("flatMap") { $0.flatMap { Just($0) }.eraseToAnyPublisher() },
        sentFromAnotherThread("switchToLatest") { $0.map { Just($0) }.switchToLatest().eraseToAnyPublisher() },
        sentFromAnotherThread("buffer") {
            $0.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher()
        },
        sentFromAnotherThread("throttle") {
            $0.throttle(for: .milliseconds(1), scheduler: queue, latest: true).eraseToAnyPublisher()
        },
        sentFromAnotherThread("share") { $0.share().eraseToAnyPublisher() },
        sentFromAnotherThread("prefix(untilOutputFrom:)") {
            $0.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false)).eraseToAnyPublisher()
        },
    ]

    @Test("the first event waits for receive(subscription:) to return", arguments: rows)
    func firstEventWaitsForTheSubscription(_ row: Row) async {
        await offThePool {
            for _ in 0..<20 {
                let delivered = DispatchSemaphore(value: 0)
                let called = LockedValue(false)
                let (publisher, during) = row.make()
                let subscriber = TestSubscriber<Int, Never>(
                    initialDemand: .unlimited,
                    onSubscription: { _ in
                        during { called.current }
                        // Stay until another call has come in (overlapping this one) or 20 ms have
                        // passed: long enough for another thread to try to call in.
                        let deadline = ContinuousClock.now + .milliseconds(20)
                        while !called.current && ContinuousClock.now < deadline { usleep(100) }
                    },
                    onValue: { _ in
                        called.set(true)
                        delivered.signal()
                        return .none
                    },
                    onCompletion: { _ in
                        called.set(true)
                        delivered.signal()
                    })
                publisher.subscribe(subscriber)
                #expect(delivered.wait(timeout: .now() + 10) == .success, "\(row): nothing was delivered")
                #expect(subscriber.violations.isEmpty, "\(row): \(subscriber.violations)")
                subscriber.cancel()
                if !subscriber.violations.isEmpty { return }
            }
        }
    }
}

/// Hands a value that is not `Sendable` to a closure that runs on another thread; the tests
/// synchronise its use themselves.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
