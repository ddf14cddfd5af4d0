// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// Shared checks and sizes of the stress suite. Sizes are kept small enough for the whole
/// suite to run in seconds in a debug build and in a few minutes under ThreadSanitizer, which
/// runs it (`.ci/run`); the counts are in each test's name.
enum Stress {
    /// How long a test waits for deliveries on a real queue before it fails (never reached
    /// when the code is right; the wait ends as soon as the completion arrives).
    static let patience = DispatchTimeInterval.seconds(30)

    /// The number of completions `subscriber` received.
    static func completions<Input, Failure>(_ subscriber: TestSubscriber<Input, Failure>) -> Int {
        subscriber.events.count { if case .completion = $0 { true } else { false } }
    }

    /// Checks the contract: no violation (value beyond demand, anything after the completion,
    /// a second completion, overlapping calls), and exactly `completions` completions (0 or 1).
    static func expectContractKept<Input, Failure>(
        _ subscriber: TestSubscriber<Input, Failure>,
        completions expected: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(subscriber.violations.isEmpty, "\(subscriber.violations)", sourceLocation: sourceLocation)
        #expect(completions(subscriber) == expected, sourceLocation: sourceLocation)
        #expect(subscriber.subscriptionCount == 1, sourceLocation: sourceLocation)
    }

    /// Checks that every one of `senders` senders' `perSender` values (sender `s` sent
    /// `s * perSender ..< (s + 1) * perSender` in order) arrived once, in its sender's order.
    static func expectEveryValueInSenderOrder(
        _ values: [Int],
        senders: Int,
        perSender: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(values.count == senders * perSender, sourceLocation: sourceLocation)
        expectSenderOrder(values, senders: senders, perSender: perSender, sourceLocation: sourceLocation)
    }

    /// Checks that no value arrived twice and each sender's values arrived in its order.
    static func expectSenderOrder(
        _ values: [Int],
        senders: Int,
        perSender: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var lastOfSender = [Int?](repeating: nil, count: senders)
        var outOfOrder: [Int] = []
        for value in values {
            let sender = value / perSender
            if let last = lastOfSender[sender], last >= value { outOfOrder.append(value) }
            lastOfSender[sender] = value
        }
        #expect(
            outOfOrder.isEmpty, "repeated or out of order: \(outOfOrder.prefix(10))", sourceLocation: sourceLocation)
    }

    /// A test subscriber that signals `done` when its completion arrives.
    static func subscriber<Input, Failure>(
        signalling done: DispatchSemaphore,
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping @Sendable (Input) -> Subscribers.Demand = { _ in .none }
    ) -> TestSubscriber<Input, Failure> {
        TestSubscriber(initialDemand: initialDemand, onValue: onValue, onCompletion: { _ in done.signal() })
    }

    /// Waits for `done`; fails the test if it does not come within ``patience``.
    static func wait(for done: DispatchSemaphore, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(done.wait(timeout: .now() + patience) == .success, sourceLocation: sourceLocation)
    }
}
