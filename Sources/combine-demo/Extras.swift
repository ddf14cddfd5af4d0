// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Testing  // for the call-site source locations of `MarbleTest`'s default arguments

// `combine-demo extras`: operators of CombineExtras, with marble transcripts drawn on a
// virtual-time scheduler (one tick = one second; `-` a tick, single letters or 'quoted' names
// values, `|` finished, `#` failure, `[ab]` events on one tick, `^`/`!` where a source was
// subscribed/cancelled).

struct ConnectionLost: Error {}

/// Events stamped with the tick of a marble test on which they happened, drawn as a marble
/// by CombineTesting's `MarbleRecording`.
private final class TickLog<Output, Failure: Error> {
    private let m: MarbleTest
    private var events: [(tick: Int, event: MarbleEvent<Output, Failure>)] = []

    init(_ m: MarbleTest) {
        self.m = m
    }

    func log(_ event: MarbleEvent<Output, Failure>) {
        events.append((m.currentTick, event))
    }

    /// The events as a marble, from tick 0 to the last event.
    var marble: String {
        guard let last = events.last?.tick else { return "" }
        let ticks = (0...last).map { tick in events.filter { $0.tick == tick }.map(\.event) }
        return MarbleRecording(ticks: ticks).marble()
    }
}

/// A reader that asks for two lines when it subscribes, then for one more on each of
/// `laterRequests` (ticks), and logs its requests and what it receives.
private final class SlowReader: Subscriber {
    typealias Input = String
    typealias Failure = ConnectionLost

    let requests: TickLog<Int, Never>
    let received: TickLog<String, ConnectionLost>
    private let m: MarbleTest
    private let laterRequests: [Int]
    private var subscription: Subscription?

    init(_ m: MarbleTest, laterRequests: [Int]) {
        self.m = m
        self.laterRequests = laterRequests
        requests = TickLog(m)
        received = TickLog(m)
    }

    func receive(subscription: Subscription) {
        self.subscription = subscription
        for tick in laterRequests {
            let time = VirtualTime.zero.advanced(by: VirtualTime.Stride(nanoseconds: m.tick.nanoseconds * tick))
            m.scheduler.schedule(after: time, tolerance: .zero, options: nil) { self.ask(1) }
        }
        ask(2)
    }

    private func ask(_ count: Int) {
        requests.log(.value(count))
        subscription?.request(.max(count))
    }

    func receive(_ input: String) -> Subscribers.Demand {
        received.log(.value(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<ConnectionLost>) {
        received.log(.completion(completion))
        subscription = nil
    }
}

private func line(_ label: String, _ marble: String) {
    print("  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(marble)")
}

func extrasDemo() {
    // The team's scenarios document (docs/SCENARIOS.md §7): a Create publisher over
    // callback-style code. Everything is sent at once; the demand buffer holds what the
    // subscriber has not asked for yet.
    print("create: a callback API sends four lines and a failure at once, on subscription; the")
    print("reader asks for two, then for one more every other tick: the rest waits in the demand")
    print("buffer, the failure behind it; the clean-up runs as soon as the failure is sent")
    let m0 = MarbleTest()
    let sent = TickLog<String, ConnectionLost>(m0)
    let connection = TickLog<String, Never>(m0)
    let lines = AnyPublisher<String, ConnectionLost>.create { subscriber in
        for text in ["HELLO", "WORLD", "HOW", "ARE"] {
            sent.log(.value(text))
            subscriber.send(text)
        }
        sent.log(.completion(.failure(ConnectionLost())))
        subscriber.send(completion: .failure(ConnectionLost()))
        return AnyCancellable { connection.log(.value("closed")) }
    }
    let reader = SlowReader(m0, laterRequests: [2, 4])
    lines.subscribe(reader)
    m0.advance(ticks: 5)
    line("the callback sends", sent.marble)
    line("the reader requests (max)", reader.requests.marble)
    line("the reader receives", reader.received.marble)
    line("the connection", connection.marble)

    // The team's scenarios document (docs/SCENARIOS.md §7): amb, the first to speak wins and the
    // other is cancelled.
    print("amb: a mirror and the primary server, whichever answers first")
    let m = MarbleTest()
    let primary = m.hot("-----1---2---|")
    let mirror = m.hot("---a---b-----|")
    line("primary", "-----1---2---|")
    line("mirror", "---a---b-----|")
    line("primary.amb(mirror)", m.record(primary.amb(mirror)).marble())
    line("primary was", primary.subscriptions.joined(separator: " "))

    print("withLatestFrom: each tap of a button takes the text field's latest text")
    let m2 = MarbleTest()
    let taps = m2.hot("--t---t--t---|")
    let text = m2.hot("-x---y-------|")
    line("taps", "--t---t--t---|")
    line("text", "-x---y-------|")
    line("taps.withLatestFrom(text)", m2.record(taps.withLatestFrom(text)).marble())

    print("share(replay: 2): a late subscriber gets the two latest values at once")
    let m3 = MarbleTest()
    let readings = m3.hot("-a-b-c---|")
    let shared = readings.share(replay: 2)
    let early = shared.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    m3.advance(ticks: 4)
    line("readings", "-a-b-c---|")
    line("late, from tick 4", "----" + m3.record(shared).marble())
    early.cancel()
}
