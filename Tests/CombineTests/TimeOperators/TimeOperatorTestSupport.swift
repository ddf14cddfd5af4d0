import Combine
import CombineTesting

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
