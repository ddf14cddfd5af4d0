// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Dispatch
import Foundation
import Observation
import Testing

/// The extras that call their subscriber from a task or another thread, with a subscriber that
/// asks for everything inside `receive(subscription:)` (as `sink` does) and then stays in that
/// call for a while: no other call may reach it before that call returns (calls into one
/// subscriber never overlap). `TestSubscriber` records a call overlapping one on another thread.
@Suite("Extras: no call overlaps receive(subscription:)")
struct BridgeOverlapTests {
    struct Row: CustomStringConvertible, Sendable {
        let description: String
        let make: @Sendable () -> (publisher: AnyPublisher<Int, Never>, during: @Sendable () -> Void)

        init(_ name: String, _ publisher: @escaping @Sendable () -> AnyPublisher<Int, Never>) {
            description = name
            make = { (publisher(), {}) }
        }

        init(
            _ name: String,
            make: @escaping @Sendable () -> (publisher: AnyPublisher<Int, Never>, during: @Sendable () -> Void)
        ) {
            description = name
            self.make = make
        }
    }

    /// A value, then nothing and no completion: the rows whose operator acts on a timer.
    static func oneThenSilence() -> AnyPublisher<Int, Never> {
        Just(1).append(Empty(completeImmediately: false)).eraseToAnyPublisher()
    }

    static let clock = ContinuousClock().scheduler

    static let rows: [Row] = [
        Row("AsyncSequence.publisher") { AsyncStream { $0.yield(1) }.publisher.eraseToAnyPublisher() },
        Row("asyncMap") { Just(1).asyncMap { $0 }.eraseToAnyPublisher() },
        Row("asyncMap(maxConcurrent:ordering: .inputOrder)") {
            Just(1).asyncMap(maxConcurrent: 2) { $0 }.eraseToAnyPublisher()
        },
        Row("asyncMap(maxConcurrent:ordering: .completionOrder)") {
            Just(1).asyncMap(maxConcurrent: 2, ordering: .completionOrder) { $0 }.eraseToAnyPublisher()
        },
        Row("tryAsyncMap") {
            Just(1).tryAsyncMap { $0 }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Row("tryAsyncMap(maxConcurrent:)") {
            Just(1).tryAsyncMap(maxConcurrent: 2) { $0 }.replaceError(with: 0).eraseToAnyPublisher()
        },
        Row("asyncMapLatest") { Just(1).asyncMapLatest { $0 }.eraseToAnyPublisher() },
        Row("Future from an async closure") { Future<Int, Never> { 1 }.eraseToAnyPublisher() },
        Row("observationPublisher(for:)") {
            let model = OverlapModel()
            return model.observationPublisher(for: \.count).eraseToAnyPublisher()
        },
        Row("receive(on:) a clock scheduler") { Just(1).receive(on: clock).eraseToAnyPublisher() },
        Row("delay on a clock scheduler") { Just(1).delay(for: .zero, scheduler: clock).eraseToAnyPublisher() },
        Row("debounce on a clock scheduler") {
            oneThenSilence().debounce(for: .milliseconds(1), scheduler: clock).eraseToAnyPublisher()
        },
        Row("timeout on a clock scheduler") {
            Empty<Int, Never>(completeImmediately: false).timeout(.milliseconds(1), scheduler: clock)
                .eraseToAnyPublisher()
        },
        Row("interval") {
            Publishers.interval(.milliseconds(1), scheduler: DispatchQueue.global()).prefix(1).eraseToAnyPublisher()
        },
        Row("create, sending from another thread") {
            AnyPublisher<Int, Never>.create { subscriber in
                DispatchQueue.global().async { subscriber.send(1) }
                return AnyCancellable {}
            }
        },
        Row("ReplaySubject, sent into from another thread") {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            let box = Box(subject)
            return (subject.eraseToAnyPublisher(), { DispatchQueue.global().async { box.value.send(1) } })
        },
    ]

    /// `async`, waiting without blocking a thread, and subscribing on a Dispatch thread: the
    /// rows' tasks need the cooperative pool's threads while the subscriber holds its own.
    @Test("the first event waits for receive(subscription:) to return", arguments: rows)
    func firstEventWaitsForTheSubscription(_ row: Row) async {
        for _ in 0..<20 {
            let delivered = LockedValue(false)
            let (publisher, during) = row.make()
            let subscriber = TestSubscriber<Int, Never>(
                initialDemand: .unlimited,
                onSubscription: { _ in
                    during()
                    waitForACall(or: delivered)
                },
                onValue: { _ in
                    delivered.set(true)
                    return .none
                },
                onCompletion: { _ in delivered.set(true) })
            let handed = Handed(publisher: publisher, subscriber: subscriber)
            await withCheckedContinuation { subscribed in
                DispatchQueue.global().async {
                    handed.publisher.subscribe(handed.subscriber)
                    subscribed.resume()
                }
            }
            #expect(await eventually { delivered.current }, "\(row): nothing was delivered")
            #expect(subscriber.violations.isEmpty, "\(row): \(subscriber.violations)")
            subscriber.cancel()
            if !subscriber.violations.isEmpty { return }
        }
    }
}

@Observable
private final class OverlapModel: @unchecked Sendable {
    var count = 0
}

/// Stays in `receive(subscription:)` until another call has come in (overlapping it) or 20 ms have
/// passed: long enough for another thread or a task to try to call in.
private func waitForACall(or delivered: LockedValue<Bool>) {
    let deadline = ContinuousClock.now + .milliseconds(20)
    while !delivered.current && ContinuousClock.now < deadline { usleep(100) }
}

/// A row's publisher and subscriber, handed to the thread that subscribes.
private struct Handed: @unchecked Sendable {
    let publisher: AnyPublisher<Int, Never>
    let subscriber: TestSubscriber<Int, Never>
}

/// Hands a value that is not `Sendable` to a closure that runs on another thread.
private struct Box<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
