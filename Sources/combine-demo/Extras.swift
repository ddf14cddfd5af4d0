import Combine
import CombineExtras
import CombineTesting
import Testing  // for the call-site source locations of `MarbleTest`'s default arguments

// `combine-demo extras`: operators of CombineExtras, with marble transcripts drawn on a
// virtual-time scheduler (one tick = one second; `-` a tick, letters values, `|` finished,
// `#` failure, `[ab]` events on one tick, `^`/`!` where a source was subscribed/cancelled).

struct ConnectionLost: Error {}

/// A subscriber that asks for two values at first, then for one more after each from the
/// second on.
private final class TwoThenOneSubscriber: Subscriber {
    typealias Input = String
    typealias Failure = ConnectionLost

    private var received = 0

    func receive(subscription: Subscription) {
        print("  request(.max(2))")
        subscription.request(.max(2))
    }

    func receive(_ input: String) -> Subscribers.Demand {
        received += 1
        let more: Subscribers.Demand = received >= 2 ? .max(1) : .none
        print("  receive(\(input)) -> \(more)")
        return more
    }

    func receive(completion: Subscribers.Completion<ConnectionLost>) {
        print("  receive(completion: \(completion))")
    }
}

private func line(_ label: String, _ marble: String) {
    print("  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) \(marble)")
}

func extrasDemo() {
    // The team's scenarios document (SCENARIOS.md §7): a Create publisher over
    // callback-style code. Everything is sent at once; the demand buffer holds what the
    // subscriber has not asked for yet.
    print("create: a callback API sends four lines and a failure at once; the reader asks for")
    print("two, then one at a time: the rest waits in the demand buffer, the failure behind it")
    let lines = AnyPublisher<String, ConnectionLost>.create { subscriber in
        for text in ["HELLO", "WORLD", "HOW", "ARE"] { subscriber.send(text) }
        subscriber.send(completion: .failure(ConnectionLost()))
        return AnyCancellable { print("  cleanup: connection closed") }
    }
    lines.subscribe(TwoThenOneSubscriber())

    // The team's scenarios document (SCENARIOS.md §7): amb, the first to speak wins and the
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
