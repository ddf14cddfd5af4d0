// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// What a publisher delivered, tick by tick, while ``MarbleTest/record(_:ticks:demand:)``
/// watched it; it draws itself as a marble.
///
/// ```swift
/// let m = MarbleTest()
/// let recording = m.record(m.hot("-a-b---c|").debounce(for: .seconds(2), scheduler: m.scheduler))
/// print(recording)              // -----b--|   (c is still waiting when the upstream finishes)
/// recording.values              // ["b"]
/// recording.completion          // .finished
/// ```
public struct MarbleRecording<Output, Failure: Error>: CustomStringConvertible {
    /// What arrived on each tick, tick 0 being the one on which the recording subscribed. An
    /// event between two ticks counts on the earlier one.
    public let ticks: [[MarbleEvent<Output, Failure>]]

    /// Creates a recording of the given ticks.
    public init(ticks: [[MarbleEvent<Output, Failure>]]) {
        self.ticks = ticks
    }

    /// The values received, in order.
    public var values: [Output] {
        ticks.joined().compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completion, if one arrived.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in ticks.joined() { return completion }
        return nil
    }

    /// The recording as a marble: each value by `valueName` (a name longer than one letter or
    /// digit is quoted), `|` and `#` for the completion, several events on one tick as a
    /// `[...]` group. A recording that completed ends at its last event; one that did not
    /// shows every tick recorded.
    ///
    /// ```swift
    /// let recording = m.record(m.cold("-a-[bc]|", values: ["a": 1, "b": 2, "c": 3]))
    /// recording.marble()                           // "-1-[23]|"
    /// recording.marble(valueName: { "n\($0)" })    // "-'n1'-['n2''n3']|"
    /// ```
    public func marble(valueName: (Output) -> String = { String(describing: $0) }) -> String {
        var symbols = tickSymbols(valueName: valueName)
        if completion != nil, let last = ticks.lastIndex(where: { !$0.isEmpty }) {
            symbols.removeSubrange((last + 1)...)
        }
        return symbols.joined()
    }

    /// ``marble(valueName:)`` with each value written by `String(describing:)`.
    public var description: String { marble() }

    /// The marble symbol of each tick.
    func tickSymbols(valueName: (Output) -> String) -> [String] {
        ticks.map { events in
            MarbleNotation.tick(
                events.map { event in
                    switch event {
                    case .value(let value): MarbleNotation.name(valueName(value))
                    case .completion(.finished): MarbleNotation.completion(failed: false)
                    case .completion(.failure): MarbleNotation.completion(failed: true)
                    }
                })
        }
    }
}

extension MarbleRecording: Equatable where Output: Equatable, Failure: Equatable {}
extension MarbleRecording: Sendable where Output: Sendable {}

/// The subscriber of `record`: it asks for the given demand once and stamps each event with
/// its tick.
final class MarbleRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let lock = Lock()
    private let clock: () -> Int
    private let demand: Subscribers.Demand
    private var subscription: Subscription?
    private var events: [(tick: Int, event: MarbleEvent<Input, Failure>)] = []
    private var completed = false

    /// - Parameters:
    ///   - demand: Requested on subscription unless `.none`; no more is asked for.
    ///   - clock: The current tick.
    init(demand: Subscribers.Demand, clock: @escaping () -> Int) {
        self.demand = demand
        self.clock = clock
    }

    var isComplete: Bool { lock.withLock { completed } }

    func receive(subscription: Subscription) {
        lock.withLock { self.subscription = subscription }
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        record(.completion(completion))
        let subscription: Subscription? = lock.withLock {
            completed = true
            return self.subscription.take()
        }
        withExtendedLifetime(subscription) {}  // released here, outside the lock
    }

    private func record(_ event: MarbleEvent<Input, Failure>) {
        let tick = clock()
        lock.withLock { events.append((tick, event)) }
    }

    /// Cancels the subscription unless the publisher completed.
    func cancel() {
        let subscription: Subscription? = lock.withLock {
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }

    /// The events grouped by tick, over `count` ticks (more if an event came later).
    func recording(ticks count: Int) -> MarbleRecording<Input, Failure> {
        let events = lock.withLock { self.events }
        var ticks = [[MarbleEvent<Input, Failure>]](repeating: [], count: max(count, (events.last?.tick ?? -1) + 1))
        for (tick, event) in events { ticks[tick].append(event) }
        return MarbleRecording(ticks: ticks)
    }
}
