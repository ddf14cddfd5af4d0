// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import TestSupport
import Testing

/// A test subscriber that also writes down each event with the tick it arrived on:
/// `"a@1"`, `"|@6"`, `"#@6"`.
func tickLoggingSubscriber<Input, Failure: Error>(
    _ m: MarbleTest, initialDemand: Subscribers.Demand = .unlimited,
    onValue: @escaping @Sendable (Input) -> Subscribers.Demand = { _ in .none }
) -> (subscriber: TestSubscriber<Input, Failure>, log: LockedValue<[String]>) {
    let log = LockedValue<[String]>([])
    let subscriber = TestSubscriber<Input, Failure>(
        initialDemand: initialDemand,
        onValue: { value in
            log.append("\(value)@\(m.currentTick)")
            return onValue(value)
        },
        onCompletion: { completion in
            if case .finished = completion {
                log.append("|@\(m.currentTick)")
            } else {
                log.append("#@\(m.currentTick)")
            }
        })
    return (subscriber, log)
}

/// Runs `body`, which must report at least one test issue, and returns the text of each issue
/// it reported (the issues are expected: they do not fail the test).
func reportedIssues(_ body: () -> Void) -> [String] {
    let issues = LockedValue<[String]>([])
    withKnownIssue {
        body()
    } matching: { issue in
        issues.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
        return true
    }
    return issues.current
}
