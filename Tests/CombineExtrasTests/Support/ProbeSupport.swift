// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Synchronization
@_exported import TestSupport
import Testing

extension TestSubscriber {
    /// This subscriber behind one that also holds `token`, for a pipeline with no closure of
    /// its own (a subject, a relay, `amb`): whoever keeps the subscriber keeps the token.
    func holding(_ token: LifetimeToken) -> AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { token.pass(self).receive(subscription: $0) },
            receiveValue: { self.receive($0) },
            receiveCompletion: { self.receive(completion: $0) })
    }
}

/// The failure of the CombineExtras source tests.
struct ProbeError: Error, Equatable {
    var code = 0
}

/// Checks that `values`, sent by `threads` threads of `perThread` values each (thread `t`
/// sending `t * perThread ..< (t + 1) * perThread` in order), all arrived, each thread's in
/// its order.
func expectEachThreadsValuesInOrder(
    _ values: [Int], threads: Int, perThread: Int, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(values.count == threads * perThread, sourceLocation: sourceLocation)
    for thread in 0..<threads {
        let mine = values.filter { $0 / perThread == thread }
        #expect(mine == Array(thread * perThread..<(thread + 1) * perThread), sourceLocation: sourceLocation)
    }
}

/// Checks that a pipeline lets go of its subscriber, and of everything its closures capture,
/// once it ends. `attach` subscribes a fresh `TestSubscriber` (capturing the probe in the
/// pipeline's closures, or subscribing through ``TestSubscriber/holding(_:)``); the check first makes sure
/// the running pipeline does hold the probe (so that the check can fail); `drive` sends
/// values; then the subscription is cancelled, or `complete` completes the pipeline. The
/// subscription itself must be gone once the test has dropped its own reference and `letGo`
/// has dropped any other the test kept. With `failing`, the completion must be a failure
/// (otherwise `.finished`).
func expectReleasedAfterEnd<Input, Failure: Error>(
    byCancel: Bool,
    failing: Bool = false,
    attach: (TestSubscriber<Input, Failure>, LifetimeToken) -> Void,
    drive: () -> Void,
    complete: () -> Void,
    letGo: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    weak var weakProbe: LifetimeToken?
    weak var weakSubscriber: TestSubscriber<Input, Failure>?
    weak var weakSubscription: AnyObject?
    var subscription: Subscription?
    let completions = LockedValue<[Bool]>([])  // whether each completion was a failure
    do {
        let probe = LifetimeToken()
        weakProbe = probe
        let subscriber = TestSubscriber<Input, Failure>(onCompletion: { completion in
            if case .failure = completion { completions.append(true) } else { completions.append(false) }
        })
        weakSubscriber = subscriber
        attach(subscriber, probe)
        subscription = subscriber.subscription
        weakSubscription = subscription.map { $0 as AnyObject }
    }
    #expect(weakProbe != nil, "the running pipeline should hold the probe", sourceLocation: sourceLocation)
    drive()
    if byCancel {
        subscription?.cancel()
    } else {
        complete()
        #expect(
            completions.current == [failing], "the pipeline did not \(failing ? "fail" : "finish") once",
            sourceLocation: sourceLocation)
    }
    #expect(weakProbe == nil, "a closure of the pipeline is still alive", sourceLocation: sourceLocation)
    #expect(weakSubscriber == nil, "the subscriber is still held", sourceLocation: sourceLocation)
    subscription = nil
    letGo()
    #expect(weakSubscription == nil, "the subscription is still alive", sourceLocation: sourceLocation)
}
