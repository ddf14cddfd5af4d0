// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Synchronization
import Testing

// Randomized model tests: random chains of synchronous operators over a random source, run
// by a test subscriber with a random demand pattern, event for event against a reference
// model (ReferencePipeline.swift) that restates Apple's demand rules, which is itself checked
// against a plain-array interpreter (ModelSupport.swift).
//
// Reproducing: the seed and the number of cases come from the environment, e.g.
//     COMBINE_MODEL_SEED=0x1234 COMBINE_MODEL_CASES=20000 swift test --filter ModelTests
// A failure names the seed and the case index, and shows the case shrunk to a minimal one.

/// One thing that happened during a run: what the subscriber received, and what the driver
/// did, in order.
enum TraceEvent: Equatable, CustomStringConvertible {
    case subscription
    case value(Int)
    case completion(ModelEnding)
    /// The driver asked for more through the subscriber.
    case request(Want)
    /// The driver sent a value into the subject.
    case send(Int)
    /// The driver completed the subject.
    case sendCompletion

    var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "\(value)"
        case .completion(let ending): "\(ending)"
        case .request(let want): "<request \(want)>"
        case .send(let value): "<send \(value)>"
        case .sendCompletion: "<send completion>"
        }
    }
}

// MARK: - Running a case

/// What the driver can do with either the real chain or the reference.
private protocol ModelHarness {
    func subscribe()
    func request(_ want: Want)
    func send(_ value: Int)
    func sendCompletion(_ ending: ModelEnding)
    var isCompleted: Bool { get }
    /// The subscriber's events since the last call.
    func takeEvents() -> [TraceEvent]
}

/// Runs the case's script: subscribe; for a subject, the sends (each possibly preceded by a
/// request) and the completion; then a request after each stall until the completion.
private func drive(_ modelCase: ModelCase, _ harness: some ModelHarness) -> [TraceEvent] {
    var trace: [TraceEvent] = []
    func act(_ marker: TraceEvent?, _ action: () -> Void) {
        if let marker { trace.append(marker) }
        action()
        trace += harness.takeEvents()
    }
    act(nil) { harness.subscribe() }
    if modelCase.source == .subject {
        for (value, request) in zip(modelCase.values, modelCase.requestsBeforeSends) {
            if request > 0, !harness.isCompleted { act(.request(.max(request))) { harness.request(.max(request)) } }
            act(.send(value)) { harness.send(value) }
        }
        act(.sendCompletion) { harness.sendCompletion(modelCase.ending) }
    }
    for want in modelCase.stallRequests where !harness.isCompleted {
        act(.request(want)) { harness.request(want) }
    }
    return trace
}

/// The demand a subscriber returns from its n-th `receive(_:)`.
private final class DemandScript: Sendable {
    private let script: [Int]
    private let position = Mutex(0)

    init(_ script: [Int]) {
        self.script = script
    }

    func next() -> Int {
        position.withLock { position in
            defer { position += 1 }
            return position < script.count ? script[position] : 0
        }
    }
}

private final class RealHarness: ModelHarness {
    let modelCase: ModelCase
    let subscriber: TestSubscriber<Int, ModelError>
    let subject = PassthroughSubject<Int, ModelError>()
    private var seen = 0

    init(_ modelCase: ModelCase) {
        self.modelCase = modelCase
        let script = DemandScript(modelCase.demandPerValue)
        subscriber = TestSubscriber(
            initialDemand: modelCase.initialDemand.demand, onValue: { _ in .max(script.next()) })
    }

    func subscribe() {
        let operators = modelCase.operators[...]
        switch (modelCase.source, modelCase.ending) {
        case (.subject, _):
            attachModelChain(operators, to: subject, subscriber: subscriber)
        case (.sequence, .finished):
            let source = Publishers.Sequence<[Int], ModelError>(sequence: modelCase.values)
            attachModelChain(operators, to: source, subscriber: subscriber)
        case (.sequence, .failure(let code)):
            let source = Publishers.Sequence<[Int], ModelError>(sequence: modelCase.values)
            attachModelChain(operators, to: source.append(Fail(error: ModelError(code: code))), subscriber: subscriber)
        }
    }

    func request(_ want: Want) { subscriber.request(want.demand) }
    func send(_ value: Int) { subject.send(value) }

    func sendCompletion(_ ending: ModelEnding) {
        switch ending {
        case .finished: subject.send(completion: .finished)
        case .failure(let code): subject.send(completion: .failure(ModelError(code: code)))
        }
    }

    var isCompleted: Bool { subscriber.completion != nil }

    func takeEvents() -> [TraceEvent] {
        let events = subscriber.events
        defer { seen = events.count }
        return events.dropFirst(seen).map { event in
            switch event {
            case .subscription: .subscription
            case .value(let value): .value(value)
            case .completion(.finished): .completion(.finished)
            case .completion(.failure(let error)): .completion(.failure(error.code))
            }
        }
    }
}

/// The reference model's subscriber: the same demand script as the real test subscriber.
private final class ReferenceRecorder: ReferenceSubscriber {
    let initialDemand: Want
    let script: DemandScript
    var events: [TraceEvent] = []
    var subscription: ReferenceSubscription?
    var completed = false

    init(_ modelCase: ModelCase) {
        initialDemand = modelCase.initialDemand
        script = DemandScript(modelCase.demandPerValue)
    }

    func receive(subscription: ReferenceSubscription) {
        events.append(.subscription)
        self.subscription = subscription
        if !initialDemand.isZero { subscription.request(initialDemand) }
    }

    func receive(_ value: Int) -> Want {
        events.append(.value(value))
        return .max(script.next())
    }

    func receive(completion: ModelEnding) {
        events.append(.completion(completion))
        completed = true
    }
}

private final class ReferenceHarness: ModelHarness {
    let modelCase: ModelCase
    let recorder: ReferenceRecorder
    let subject = ReferenceSubject()
    private var seen = 0

    init(_ modelCase: ModelCase) {
        self.modelCase = modelCase
        recorder = ReferenceRecorder(modelCase)
    }

    func subscribe() {
        let subject = self.subject
        let source: ReferencePublisher =
            modelCase.source == .subject
            ? { subject.subscribe($0) } : referenceSequence(modelCase.values, ending: modelCase.ending)
        let chain = modelCase.operators.reduce(source) { upstream, op in op.reference(after: upstream) }
        chain(recorder)
    }

    func request(_ want: Want) { recorder.subscription?.request(want) }
    func send(_ value: Int) { subject.send(value) }
    func sendCompletion(_ ending: ModelEnding) { subject.send(completion: ending) }
    var isCompleted: Bool { recorder.completed }

    func takeEvents() -> [TraceEvent] {
        defer { seen = recorder.events.count }
        return Array(recorder.events.dropFirst(seen))
    }
}

/// The result of running one case both ways.
struct ModelOutcome {
    var expected: [TraceEvent]
    var actual: [TraceEvent]
    var violations: [String]
    /// What is wrong; empty when the case passes.
    var problems: [String]
}

func runModelCase(_ modelCase: ModelCase) -> ModelOutcome {
    let expected = drive(modelCase, ReferenceHarness(modelCase))
    let real = RealHarness(modelCase)
    let actual = drive(modelCase, real)
    let violations = real.subscriber.violations
    var problems: [String] = []
    if actual != expected { problems.append("the events differ from the reference model's") }
    if !violations.isEmpty { problems.append("the subscriber contract was broken: \(violations)") }
    if modelCase.source == .sequence {
        // The reference itself must agree with the array interpreter: a prefix of the full
        // output, all of it when it completes.
        let full = modelCase.unlimitedOutput
        let values = expected.compactMap { if case .value(let value) = $0 { value } else { nil } }
        let endings = expected.compactMap { if case .completion(let ending) = $0 { ending } else { nil } }
        if !full.values.starts(with: values)
            || (!endings.isEmpty && (values != full.values || endings != [full.ending]))
        {
            problems.append("the reference model disagrees with the array interpreter: \(full)")
        }
    }
    return ModelOutcome(expected: expected, actual: actual, violations: violations, problems: problems)
}

// MARK: - Shrinking

extension ModelCase {
    /// Simpler variants of this case, simplest first: fewer operators, fewer values, plainer
    /// demand.
    var simplifications: [ModelCase] {
        var candidates: [ModelCase] = []
        func variant(_ change: (inout ModelCase) -> Void) {
            var copy = self
            change(&copy)
            if copy != self { candidates.append(copy) }
        }
        for index in operators.indices { variant { $0.operators.remove(at: index) } }
        if !values.isEmpty {
            variant { $0.keepValues(Array(0..<0)) }
            variant { $0.keepValues(Array(0..<(values.count / 2))) }
            variant { $0.keepValues(Array((values.count / 2)..<values.count)) }
            for index in values.indices { variant { $0.keepValues(values.indices.filter { $0 != index }) } }
            for index in values.indices where values[index] != 0 { variant { $0.values[index] = 0 } }
        }
        variant { $0.ending = .finished }
        variant {
            $0.source = .sequence
            $0.requestsBeforeSends = []
        }
        for index in requestsBeforeSends.indices { variant { $0.requestsBeforeSends[index] = 0 } }
        variant { $0.initialDemand = .unlimited }
        if let count = initialDemand.count, count > 1 { variant { $0.initialDemand = .max(count - 1) } }
        variant { $0.demandPerValue = [] }
        if !demandPerValue.isEmpty { variant { $0.demandPerValue.removeLast() } }
        for index in demandPerValue.indices { variant { $0.demandPerValue[index] = 0 } }
        variant { $0.stallRequests = [] }
        for index in stallRequests.indices { variant { $0.stallRequests.remove(at: index) } }
        for index in operators.indices {
            for simpler in operators[index].simplifications { variant { $0.operators[index] = simpler } }
        }
        return candidates
    }

    /// Keeps the values at `indices` (and, for a subject, the requests before them).
    private mutating func keepValues(_ indices: [Int]) {
        let requests = requestsBeforeSends
        values = indices.map { values[$0] }
        if source == .subject { requestsBeforeSends = indices.map { requests[$0] } }
    }

    /// The simplest variant of this case that still fails, found greedily.
    func shrunk(while stillFails: (ModelCase) -> Bool) -> ModelCase {
        var current = self
        var budget = 3000
        search: while budget > 0 {
            for candidate in current.simplifications {
                budget -= 1
                if stillFails(candidate) {
                    current = candidate
                    continue search
                }
                if budget == 0 { break }
            }
            break
        }
        return current
    }
}

extension ModelOperator {
    /// The same operator with smaller parameters.
    var simplifications: [ModelOperator] {
        switch self {
        case .dropFirst(let count) where count > 0: [.dropFirst(count - 1)]
        case .prefix(let count) where count > 0: [.prefix(count - 1)]
        case .collect(let count) where count > 1: [.collect(count - 1)]
        case .output(let lower, let upper) where lower > 0: [.output(lower: lower - 1, upper: upper - 1)]
        case .map(let multiplier, let offset) where multiplier != 1 || offset != 0: [.map(multiplier: 1, offset: 0)]
        case .catchWith(let values) where !values.isEmpty: [.catchWith([])]
        case .append(let values) where !values.isEmpty: [.append([])]
        case .prepend(let values) where !values.isEmpty: [.prepend([])]
        default: []
        }
    }
}

// MARK: - Configuration

enum ModelRun {
    /// The seed CI runs with.
    static let defaultSeed: UInt64 = 0x5EED_0C0B_1E00_0007
    /// Cases per source kind in one run.
    static let defaultCases = 8000

    static var seed: UInt64 {
        guard let text = ProcessInfo.processInfo.environment["COMBINE_MODEL_SEED"] else { return defaultSeed }
        let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        return parsed ?? defaultSeed
    }

    static var cases: Int {
        ProcessInfo.processInfo.environment["COMBINE_MODEL_CASES"].flatMap { Int($0) } ?? defaultCases
    }

    /// Runs `count` random cases; on the first failure records an issue naming the seed, the
    /// case index and the shrunk case, and stops.
    static func check(source: ModelSource, seed: UInt64 = seed, count: Int = cases) {
        for index in 0..<count {
            var generator = SplitMix64.forCase(index, of: seed)
            let modelCase = ModelCase.random(using: &generator, source: source)
            guard !runModelCase(modelCase).problems.isEmpty else { continue }
            let minimal = modelCase.shrunk { !runModelCase($0).problems.isEmpty }
            let outcome = runModelCase(minimal)
            Issue.record(
                """
                Model test failed: seed 0x\(String(seed, radix: 16)), case \(index) of the \(source) cases \
                (COMBINE_MODEL_SEED=0x\(String(seed, radix: 16)) COMBINE_MODEL_CASES=\(index + 1)).
                \(outcome.problems.joined(separator: "; "))
                Shrunk case:
                  \(minimal)
                  expected (reference): \(outcome.expected)
                  actual:               \(outcome.actual)
                Original case:
                  \(modelCase)
                """)
            return
        }
    }
}

// MARK: - Tests

@Suite("Random operator chains against a reference model")
struct ModelTests {
    @Test func chainsOverASequenceMatchTheModel() async {
        await offThePool {
            ModelRun.check(source: .sequence)
        }
    }

    @Test func chainsOverASubjectMatchTheModel() async {
        await offThePool {
            ModelRun.check(source: .subject)
        }
    }

    /// The reference model on cases worked out by hand from Apple's rules, so that the
    /// random tests rest on a checked reference.
    @Test(arguments: [
        // A filtered-out value is replaced by one more from upstream: with demand 1 spent on
        // `1`, the sequence stops before `2` and `3`, so no completion until more is asked.
        (
            ModelCase.handWorked(
                values: [1, 2, 3], [.filter(divisor: 2, remainder: 1)], initial: .max(1), stall: [.max(1)]),
            [TraceEvent.subscription, .value(1), .request(.max(1)), .value(3), .completion(.finished)]
        ),
        // prefix finishes right after its last value, whatever the demand.
        (
            ModelCase.handWorked(values: [5, 6, 7], [.prefix(2)], initial: .max(2)),
            [.subscription, .value(5), .value(6), .completion(.finished)]
        ),
        // reduce asks upstream for everything and holds its result until asked.
        (
            ModelCase.handWorked(values: [1, 2], [.reduce(initial: 0)], initial: .none, stall: [.max(1)]),
            [.subscription, .request(.max(1)), .value(3), .completion(.finished)]
        ),
        // A failure passes a waiting reducer at once; replaceError holds its value for demand.
        (
            ModelCase.handWorked(
                values: [1, 2], [.tryMap(divisor: 2, remainder: 0), .count, .replaceError(-1)], initial: .none,
                stall: [.max(1)]),
            [.subscription, .request(.max(1)), .value(-1), .completion(.finished)]
        ),
        // collect(2) asks for two per group and publishes the partial group on finishing.
        (
            ModelCase.handWorked(values: [1, 2, 3], [.collect(2)], initial: .max(1), stall: [.max(1)]),
            [
                .subscription, .value(modelFold([1, 2])), .request(.max(1)), .value(modelFold([3])),
                .completion(.finished),
            ]
        ),
        // prepend's values first; the upstream is subscribed only after they are done.
        (
            ModelCase.handWorked(values: [], [.prepend([8, 9])], initial: .max(1), stall: [.max(1)]),
            [.subscription, .value(8), .request(.max(1)), .value(9), .completion(.finished)]
        ),
    ])
    func referenceModelFollowsAppleRules(modelCase: ModelCase, expected: [TraceEvent]) {
        let outcome = runModelCase(modelCase)
        #expect(outcome.expected == expected)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    /// A subject drops what it is sent without demand, and the model says so.
    @Test func subjectValuesWithoutDemandAreDropped() {
        var modelCase = ModelCase.handWorked(values: [1, 2, 3], [.map(multiplier: 1, offset: 0)], initial: .none)
        modelCase.source = .subject
        modelCase.requestsBeforeSends = [0, 1, 0]
        let outcome = runModelCase(modelCase)
        #expect(
            outcome.expected == [
                .subscription, .send(1), .request(.max(1)), .send(2), .value(2), .send(3), .sendCompletion,
                .completion(.finished),
            ])
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    /// The shrinker, on a made-up failure ("a chain with `last` over at least two values"),
    /// gets down to that and nothing more.
    @Test func shrinkingFindsTheMinimalCase() {
        var generator = SplitMix64(seed: 42)
        var modelCase = ModelCase.random(using: &generator, source: .subject)
        modelCase.operators.insert(.last, at: 0)
        modelCase.values += [4, 5]
        modelCase.requestsBeforeSends += [0, 0]
        let minimal = modelCase.shrunk { $0.operators.contains(.last) && $0.values.count >= 2 }
        #expect(minimal.operators == [.last])
        #expect(minimal.values == [0, 0])
        #expect(minimal.source == .sequence)
        #expect(minimal.initialDemand == .unlimited)
        #expect(minimal.demandPerValue.isEmpty && minimal.stallRequests.isEmpty)
    }

    @Test func theGeneratorIsReproducible() {
        var first = SplitMix64.forCase(7, of: ModelRun.defaultSeed)
        var second = SplitMix64.forCase(7, of: ModelRun.defaultSeed)
        #expect(
            ModelCase.random(using: &first, source: .sequence) == ModelCase.random(using: &second, source: .sequence))
    }
}

extension ModelCase {
    /// A sequence-sourced case for the hand-worked examples.
    static func handWorked(
        values: [Int], _ operators: [ModelOperator], initial: Want, perValue: [Int] = [], stall: [Want] = []
    ) -> ModelCase {
        ModelCase(
            source: .sequence, values: values, ending: .finished, operators: operators, initialDemand: initial,
            demandPerValue: perValue, requestsBeforeSends: [], stallRequests: stall)
    }
}
