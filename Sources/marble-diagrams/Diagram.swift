// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

/// One operator's diagram: its input lanes, what the operator box says, and the pipelines whose
/// outputs make the output lanes.
struct Diagram {
    let name: String
    let catalog: String
    let inputs: [Input]
    let label: String
    /// How many ticks to run and draw; by default one more than the longest input.
    let ticks: Int?
    let make: (Run) -> [Output]

    /// A diagram with one output lane, subscribed at tick zero.
    init<P: Publisher>(
        name: String, catalog: String = "Combine", inputs: [Input], label: String, ticks: Int? = nil,
        make: @escaping (Run, [MarblePublisher<String, MarbleError>]) -> P
    ) {
        self.init(name: name, catalog: catalog, inputs: inputs, label: label, ticks: ticks) { run in
            [Output(make(run, run.inputs))]
        }
    }

    /// A diagram with several output lanes (subscribers that subscribe at different ticks).
    init(
        name: String, catalog: String = "Combine", inputs: [Input], label: String, ticks: Int? = nil,
        outputs: @escaping (Run) -> [Output]
    ) {
        self.name = name
        self.catalog = catalog
        self.inputs = inputs
        self.label = label
        self.ticks = ticks
        self.make = outputs
    }
}

/// An input lane: a marble of string values, played cold (from each subscription) or hot (on
/// the clock from tick zero, with its subscriptions and cancels drawn on the lane).
struct Input: ExpressibleByStringLiteral {
    enum Kind { case cold, hot }
    let kind: Kind
    let marble: String
    let title: String?

    init(stringLiteral marble: String) { self.init(.cold, marble) }

    init(_ kind: Kind, _ marble: String, title: String? = nil) {
        self.kind = kind
        self.marble = marble
        self.title = title
    }
}

/// Cold lanes titled in order (`upstream`, then the names the operator box uses).
func titled(_ titles: [String], _ marbles: [String]) -> [Input] {
    zip(titles, marbles).map { cold($1, $0) }
}

func cold(_ marble: String, _ title: String? = nil) -> Input { Input(.cold, marble, title: title) }
func hot(_ marble: String, _ title: String? = nil) -> Input { Input(.hot, marble, title: title) }

/// An output lane: a publisher subscribed at tick `start`, with unlimited demand or with the
/// demand `requests` asks for at each tick; its values drawn by their descriptions.
struct Output {
    let start: Int
    let title: String?
    let attach: (Run, @escaping (MarbleSVG.Lane.Event) -> Void) -> AnyCancellable

    init<P: Publisher>(_ publisher: P, at start: Int = 0, title: String? = nil, requests: [Int: Int]? = nil) {
        self.start = start
        self.title = title
        attach = { run, record in
            let subscriber = Requesting<P.Output, P.Failure>(record: record)
            publisher.subscribe(subscriber)
            if let requests {
                for (tick, count) in requests { run.at(tick) { subscriber.request(.max(count)) } }
            } else {
                subscriber.request(.unlimited)
            }
            return AnyCancellable(subscriber)
        }
    }
}

/// The subscriber of an output lane: records what arrives, and requests when told to.
final class Requesting<Input, Failure: Error>: Subscriber, Cancellable {
    private var subscription: (any Subscription)?
    /// Demand asked for before the subscription arrived (an operator such as `subscribe(on:)`
    /// hands it over later), requested as soon as it does.
    private var pending = Subscribers.Demand.none
    private let record: (MarbleSVG.Lane.Event) -> Void

    init(record: @escaping (MarbleSVG.Lane.Event) -> Void) { self.record = record }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        if pending > .none { subscription.request(pending) }
        pending = .none
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        record(.value(describe(input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure = completion { record(.failure) } else { record(.finished) }
        subscription = nil
    }

    func request(_ demand: Subscribers.Demand) {
        if let subscription { subscription.request(demand) } else { pending += demand }
    }

    func cancel() {
        subscription?.cancel()
        subscription = nil
    }
}

/// What a diagram's pipelines are built from: the test clock, the input publishers, and a way to
/// act at a tick (connect a connectable publisher, send into a subject).
final class Run {
    let test: MarbleTest
    fileprivate(set) var inputs: [MarblePublisher<String, MarbleError>] = []
    private var kept: [Any] = []

    init(test: MarbleTest) { self.test = test }

    /// Makes the input publishers (a hot one schedules its events on the clock as it is made).
    func makeInputs(_ inputs: [Input]) {
        self.inputs = inputs.map { $0.kind == .hot ? test.hot($0.marble) : test.cold($0.marble) }
    }

    var scheduler: TestScheduler<VirtualTime, Never> { test.scheduler }

    /// `ticks` ticks of virtual time.
    func ticks(_ count: Int) -> VirtualTime.Stride { .init(nanoseconds: test.tick.nanoseconds * count) }

    /// Runs `action` at tick `tick`, after that tick's input events.
    func at(_ tick: Int, _ action: @escaping () -> Void) {
        scheduler.schedule(after: VirtualTime.zero.advanced(by: ticks(tick)), tolerance: .zero, options: nil, action)
    }

    /// Keeps `object` (a connection, a subscription) alive for the whole run.
    func keep(_ object: Any) { kept.append(object) }
}

/// A value's label on a marble: strings as they are, anything else by its description without
/// quotes or spaces (`[a,b]`, `(a,1)`).
func describe(_ value: Any) -> String {
    if let string = value as? String { return string }
    return String(describing: value).replacingOccurrences(of: "\"", with: "")
        .replacingOccurrences(of: "MarbleError(error)", with: "error")
        .replacingOccurrences(of: ", ", with: ",")
}
