// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

// The lock rule (docs/DESIGN.md, Locks) covers what a pipeline lets go of: a value it drops
// or replaces may be a user object whose deinit calls back into the pipeline (cancels, reads
// the subject's value). Released while the pipeline holds its non-recursive lock, that call
// would take the lock again and wait on itself forever; released after it, the
// call just runs.

/// Runs an action from the deinit of each value it made, counting the calls.
private final class DeinitHook: @unchecked Sendable {
    /// A value that runs its hook's action when it goes.
    final class Value: @unchecked Sendable {
        let hook: DeinitHook
        init(hook: DeinitHook) { self.hook = hook }
        deinit { hook.fire() }
    }

    private let action = LockedValue<(@Sendable () -> Void)?>(nil)
    private let calls = LockedValue(0)

    /// How many values have gone.
    var released: Int { calls.current }

    /// Sets what each value's deinit does from now on.
    func onRelease(_ action: @escaping @Sendable () -> Void) {
        self.action.withLock { $0 = action }
    }

    func value() -> Value { Value(hook: self) }

    fileprivate func fire() {
        calls.withLock { $0 += 1 }
        action.current?()
    }
}

private typealias Value = DeinitHook.Value

/// Used from the test's thread only.
private final class Holder: @unchecked Sendable {
    @Published var value: Value
    init(_ value: Value) { self.value = value }
}

@Suite("Release: values a pipeline drops or replaces go after its lock")
struct ValuesReleasedOutsideTheLockTests {
    enum Case: String, CaseIterable, Sendable {
        case bufferDroppingTheOldest, bufferFailing, mergeFailing, combineLatestReplacing, debounceReplacing,
            throttleReplacing, currentValueSubjectReplacing, publishedReplacing
    }

    /// Each case lets go of a value — dropped for want of room or demand, overtaken by a
    /// failure, or replaced by a newer one — whose deinit calls back into the same pipeline.
    @Test(arguments: Case.allCases)
    func aValueWhoseDeinitCallsBackIsReleasedAfterTheLock(_ scenario: Case) {
        let hook = DeinitHook()
        let scheduler = TestScheduler<VirtualTime, Never>()
        let failure = CoreTestError(code: 1)
        switch scenario {
        case .bufferDroppingTheOldest:
            Self.send(
                hook, failing: Never.self, through: { $0.buffer(size: 1, prefetch: .keepFull, whenFull: .dropOldest) },
                then: {
                    $0.send(hook.value())  // full: the first is dropped
                })
        case .bufferFailing:
            let subscriber = Self.send(
                hook, failing: CoreTestError.self,
                through: { $0.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest) },
                then: {
                    $0.send(completion: .failure(failure))  // overtakes the queued value
                })
            #expect(subscriber.completion == .failure(failure))
        case .mergeFailing:
            let subscriber = Self.send(
                hook, failing: CoreTestError.self, through: { $0.merge(with: Empty(completeImmediately: false)) },
                then: {
                    $0.send(completion: .failure(failure))  // overtakes the queued value
                })
            #expect(subscriber.completion == .failure(failure))
        case .combineLatestReplacing:
            let other = PassthroughSubject<Int, Never>()
            Self.send(
                hook, failing: Never.self, through: { $0.combineLatest(other) },
                then: {
                    $0.send(hook.value())  // replaces the latest
                })
        case .debounceReplacing:
            Self.send(
                hook, failing: Never.self, through: { $0.debounce(for: .seconds(1), scheduler: scheduler) },
                then: {
                    $0.send(hook.value())  // the first is superseded before its due time
                })
        case .throttleReplacing:
            Self.send(
                hook, failing: Never.self, demand: .unlimited,
                through: { $0.throttle(for: .seconds(1), scheduler: scheduler, latest: true) },
                then: {
                    $0.send(hook.value())  // replaces the first, still waiting for the scheduler
                })
        case .currentValueSubjectReplacing:
            let subject = CurrentValueSubject<Value, Never>(hook.value())
            hook.onRelease { [weak subject] in _ = subject?.value }
            #expect(hook.released == 0)
            subject.send(hook.value())  // replaces the current value
        case .publishedReplacing:
            let holder = Holder(hook.value())
            let cancellable = holder.$value.sink { _ in }
            hook.onRelease { [weak holder] in _ = holder?.value }
            #expect(hook.released == 0)
            holder.value = hook.value()  // replaces the stored value
            cancellable.cancel()
        }
        #expect(hook.released > 0, "\(scenario.rawValue): the value is still held")
        withExtendedLifetime(scheduler) {}
    }

    /// Subscribes a `TestSubscriber` asking for `demand` to `pipeline` over a test publisher,
    /// has every value's deinit cancel it, sends one value, then runs `next` on the publisher
    /// (which makes the pipeline let go of that value).
    @discardableResult
    private static func send<Failure: Error, P: Publisher>(
        _ hook: DeinitHook, failing: Failure.Type, demand: Subscribers.Demand = .none,
        through pipeline: (TestPublisher<Value, Failure>) -> P, then next: (TestPublisher<Value, Failure>) -> Void
    ) -> TestSubscriber<P.Output, Failure> where P.Failure == Failure {
        let upstream = TestPublisher<Value, Failure>()
        let subscriber = TestSubscriber<P.Output, Failure>(initialDemand: demand)
        pipeline(upstream).subscribe(subscriber)
        hook.onRelease { [weak subscriber] in subscriber?.cancel() }
        upstream.send(hook.value())
        #expect(hook.released == 0)
        next(upstream)
        return subscriber
    }
}
