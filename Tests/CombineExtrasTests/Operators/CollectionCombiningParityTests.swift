// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

/// `Collection.zip()` and `combineLatest()` must end exactly as the core's `Zip3` and
/// `CombineLatest3` do over the same three upstreams (CombineExt builds its collection forms
/// from Apple's types, and code moving from it relies on that): the same arrays, the same
/// completion at the same step, the same upstreams cancelled.
@Suite("Collection.zip() and combineLatest() end as Zip and CombineLatest")
struct CollectionCombiningParityTests {
    /// One thing an upstream does.
    enum Step: Sendable {
        case send(Int, Int)
        case finish(Int)
        case fail(Int)
    }

    /// A named run of steps over three upstreams.
    struct Script: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [Step]

        var testDescription: String { name }
    }

    static let scripts: [Script] = [
        Script(
            name: "one finishes without a value while the others run",
            steps: [.send(0, 1), .finish(1), .send(2, 30), .send(0, 2), .finish(0), .send(2, 31), .finish(2)]),
        Script(
            name: "one finishes first, its latest value still combines",
            steps: [
                .send(0, 1), .send(1, 10), .send(2, 100), .finish(0), .send(1, 11), .finish(1), .send(2, 101),
                .finish(2),
            ]),
        Script(
            name: "one finishes with values left to pair",
            steps: [
                .send(0, 1), .send(0, 2), .finish(0), .send(1, 10), .send(2, 100), .send(1, 11), .send(2, 101),
                .send(1, 12),
            ]),
        Script(
            name: "one finishes before anything",
            steps: [.finish(2), .send(0, 1), .send(1, 10), .finish(0), .finish(1)]),
        Script(name: "a failure after a finish", steps: [.send(0, 1), .finish(0), .send(1, 10), .fail(2)]),
        Script(
            name: "a failure with values waiting",
            steps: [.send(0, 1), .send(0, 2), .send(1, 10), .fail(1), .send(2, 5)]),
        Script(
            name: "all finish in turn",
            steps: [.send(1, 10), .finish(1), .send(0, 1), .finish(0), .send(2, 100), .finish(2)]),
    ]

    @Test(arguments: CollectionCombiningTests.Operator.allCases, scripts)
    func endsAsTheCoreOperator(_ combining: CollectionCombiningTests.Operator, _ script: Script) {
        let core = Self.run(script) { publishers in
            switch combining {
            case .zip: publishers[0].zip(publishers[1], publishers[2]).map { [$0, $1, $2] }.eraseToAnyPublisher()
            case .combineLatest:
                publishers[0].combineLatest(publishers[1], publishers[2]).map { [$0, $1, $2] }.eraseToAnyPublisher()
            }
        }
        let collection = Self.run(script) { publishers in combining.apply(to: publishers) }
        #expect(collection.trace == core.trace)
        #expect(collection.cancels == core.cancels)
        #expect(!core.trace.isEmpty)
    }

    /// What a run left: after each step, the events the subscriber got; and which upstreams
    /// were cancelled.
    struct Outcome {
        var trace: [String] = []
        var cancels: [Int] = []
    }

    static func run(
        _ script: Script,
        _ combine: ([TestPublisher<Int, OperatorFailure>]) -> AnyPublisher<[Int], OperatorFailure>
    ) -> Outcome {
        let publishers = (0..<3).map { _ in TestPublisher<Int, OperatorFailure>() }
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        combine(publishers).subscribe(subscriber)
        var outcome = Outcome()
        var seen = 1  // the subscription
        for (number, step) in script.steps.enumerated() {
            switch step {
            case .send(let index, let value): publishers[index].send(value)
            case .finish(let index): publishers[index].send(completion: .finished)
            case .fail(let index): publishers[index].send(completion: .failure(OperatorFailure(code: index)))
            }
            for event in subscriber.events.dropFirst(seen) {
                switch event {
                case .subscription: outcome.trace.append("step \(number): subscription")
                case .value(let array): outcome.trace.append("step \(number): \(array)")
                case .completion(let completion): outcome.trace.append("step \(number): \(completion)")
                }
            }
            seen = subscriber.events.count
        }
        outcome.cancels = publishers.map(\.cancelCount)
        #expect(subscriber.violations.isEmpty)
        return outcome
    }
}
