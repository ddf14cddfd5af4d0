import Combine
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

/// An object whose lifetime a test watches through a weak reference: captured by a closure,
/// it lives exactly as long as the closure.
final class LifeProbe: Sendable {
    /// Returns `value`; a closure that calls this captures the probe.
    func pass<Value>(_ value: Value) -> Value { value }

    /// `subscriber` behind a subscriber that also holds this probe, for a pipeline with no
    /// closure of its own (a subject, a relay, `amb`): whoever keeps the subscriber keeps
    /// the probe.
    func heldBy<Input, Failure: Error>(
        _ subscriber: TestSubscriber<Input, Failure>
    ) -> AnySubscriber<Input, Failure> {
        AnySubscriber(
            receiveSubscription: { self.pass(subscriber).receive(subscription: $0) },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) })
    }
}

/// A value behind a lock, shared with closures that may run on other threads.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()  // a pthread mutex, which ThreadSanitizer sees
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withValue { $0 } }

    func set(_ newValue: Value) {
        withValue { $0 = newValue }
    }
}

extension Guarded where Value: RangeReplaceableCollection {
    func append(_ element: Value.Element) {
        withValue { $0.append(element) }
    }
}

extension Guarded where Value == Int {
    func increment() {
        withValue { $0 += 1 }
    }
}

/// The failure of the CombineExtras source tests.
struct ProbeError: Error, Equatable {
    var code = 0
}

/// Runs `body(index)` for `0..<count` on as many new threads, released together from one
/// barrier so that they really overlap, and returns when all are done.
func onManyThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let arrived = Atomic<Int>(0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            arrived.add(1, ordering: .acquiringAndReleasing)
            while arrived.load(ordering: .acquiring) < count {}
            body(index)
            done.leave()
        }.start()
    }
    done.wait()
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
/// pipeline's closures, or subscribing ``LifeProbe/heldBy(_:)``); the check first makes sure
/// the running pipeline does hold the probe (so that the check can fail); `drive` sends
/// values; then the subscription is cancelled, or `complete` completes the pipeline. The
/// subscription itself must be gone once the test has dropped its own reference and `letGo`
/// has dropped any other the test kept. With `failing`, the completion must be a failure
/// (otherwise `.finished`).
func expectReleasedAfterEnd<Input, Failure: Error>(
    byCancel: Bool,
    failing: Bool = false,
    attach: (TestSubscriber<Input, Failure>, LifeProbe) -> Void,
    drive: () -> Void,
    complete: () -> Void,
    letGo: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
) {
    weak var weakProbe: LifeProbe?
    weak var weakSubscriber: TestSubscriber<Input, Failure>?
    weak var weakSubscription: AnyObject?
    var subscription: Subscription?
    let completions = Guarded<[Bool]>([])  // whether each completion was a failure
    do {
        let probe = LifeProbe()
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
