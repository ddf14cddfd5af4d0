// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// The virtual-time scheduler of the time-operator tests.
typealias VirtualScheduler = TestScheduler<VirtualTime, Never>

/// A value and the virtual time, in milliseconds, at which a subscriber received it.
struct Stamped<Value: Equatable>: Equatable, CustomStringConvertible {
    let value: Value
    let ms: Int

    init(_ value: Value, at ms: Int) {
        self.value = value
        self.ms = ms
    }

    var description: String { "\(value)@\(ms)ms" }
}

/// A test subscriber that also records the virtual time at which each value arrived.
func stampingSubscriber<Input: Equatable & Sendable, Failure: Error>(
    on scheduler: VirtualScheduler, initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping @Sendable (Input) -> Subscribers.Demand = { _ in .none }
) -> (subscriber: TestSubscriber<Input, Failure>, stamps: LockedValue<[Stamped<Input>]>) {
    let stamps = LockedValue<[Stamped<Input>]>([])
    let subscriber = TestSubscriber<Input, Failure>(
        initialDemand: initialDemand,
        onValue: { value in
            stamps.append(Stamped(value, at: scheduler.now.nanoseconds / 1_000_000))
            return onValue(value)
        })
    return (subscriber, stamps)
}

extension VirtualScheduler {
    /// Advances the clock to `ms` milliseconds after virtual time zero.
    func advance(toMilliseconds ms: Int) {
        advance(to: VirtualTime(nanoseconds: ms * 1_000_000))
    }
}

/// A chain from a subject through the operator under test into a sink whose closure captures
/// a token: once the chain is released, the token is gone.
struct ReleaseProbe {
    let subject = PassthroughSubject<Int, Never>()
    private(set) var cancellable: AnyCancellable?
    private weak var token: LifetimeToken?

    init<P: Publisher>(_ operatorUnderTest: (PassthroughSubject<Int, Never>) -> P) where P.Failure == Never {
        let captured = LifetimeToken()
        token = captured
        cancellable = operatorUnderTest(subject).sink { _ in _ = captured }
    }

    /// Whether the sink's closure, and so the whole chain, was released.
    var isReleased: Bool { token == nil }
}

extension Stamped: Sendable where Value: Sendable {}

/// Runs the operator under test between a subject and a subscriber that, from inside its
/// `receive`, sends the next number into that subject (1, then 2, then 3), and returns what the
/// subscriber received, stamped, and the contract violations it saw.
func reentrantRun<P: Publisher<Int, Never>>(
    on scheduler: VirtualScheduler, _ operatorUnderTest: (PassthroughSubject<Int, Never>) -> P
) -> (stamps: [Stamped<Int>], violations: [String]) {
    let subject = PassthroughSubject<Int, Never>()
    let (subscriber, stamps) =
        stampingSubscriber(on: scheduler) { value in
            if value < 3 { subject.send(value + 1) }
            return .none
        } as (TestSubscriber<Int, Never>, _)
    operatorUnderTest(subject).subscribe(subscriber)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    return (stamps.current, subscriber.violations)
}

/// Runs the operator under test from a test publisher that sends `values` (the scheduler
/// taking a turn after each but the last), cancels twice while the last one waits, then runs
/// the clock on; returns what the subscriber saw and how often the upstream was cancelled.
func cancelWhileWaiting<P: Publisher<Int, Never>>(
    on scheduler: VirtualScheduler, sending values: [Int], _ operatorUnderTest: (TestPublisher<Int, Never>) -> P
) -> (events: [TestSubscriber<Int, Never>.Event], upstreamCancels: Int, violations: [String]) {
    let upstream = TestPublisher<Int, Never>()
    let subscriber = TestSubscriber<Int, Never>()
    operatorUnderTest(upstream).subscribe(subscriber)
    for (index, value) in values.enumerated() {
        if index > 0 { scheduler.advance() }
        upstream.send(value)
    }
    subscriber.cancel()
    subscriber.cancel()
    #expect(scheduler.pendingActionCount <= 1)  // at most a weakly held delivery is left
    scheduler.advance(by: .seconds(5))
    return (subscriber.events, upstream.cancelCount, subscriber.violations)
}
