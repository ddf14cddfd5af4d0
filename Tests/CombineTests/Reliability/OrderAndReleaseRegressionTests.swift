// SPDX-License-Identifier: Apache-2.0
import CombineTesting
import Dispatch
import Foundation
import Testing

@testable import Combine

// Regression tests for issue 39's items 3 and 4: each failed before its fix. The concurrent
// shapes of items 1 and 2 are in the contract stress matrix (ContractMatrixTests).

/// A scheduler whose test decides when and in which order the actions run: those scheduled to
/// run at once wait in a list, and the repeating ones are fired by hand. A concurrent queue may
/// run two actions in either order; this one runs them in the order the test picks.
final class HandRunScheduler: Scheduler, @unchecked Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = Never

    private let lock = NSLock()
    private var pending: [() -> Void] = []
    private var repeating: [(id: Int, action: () -> Void)] = []
    private var cancelled: Set<Int> = []
    private var nextID = 0

    var now: SchedulerTimeType { SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)) }
    var minimumTolerance: SchedulerTimeType.Stride { .zero }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        lock.withLock { pending.append(action) }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        lock.withLock { pending.append(action) }
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let id: Int = lock.withLock {
            nextID += 1
            repeating.append((nextID, action))
            return nextID
        }
        return AnyCancellable { [weak self] in self?.lock.withLock { _ = self?.cancelled.insert(id) } }
    }

    /// Runs the actions waiting to run at once, the last scheduled first.
    func runPendingNewestFirst() {
        let actions: [() -> Void] = lock.withLock {
            defer { pending = [] }
            return pending.reversed()
        }
        for action in actions { action() }
    }

    /// Fires every repeating action not cancelled.
    func fireTimers() {
        let actions: [() -> Void] = lock.withLock { repeating.filter { !cancelled.contains($0.id) }.map(\.action) }
        for action in actions { action() }
    }
}

@Suite("collect(.byTimeOrCount) publishes its groups in the order they were filled")
struct CollectGroupOrderTests {
    /// A subject collected in twos or by a one-second timer on a ``HandRunScheduler``.
    static func collectingPairs() -> (HandRunScheduler, PassthroughSubject<Int, Never>, TestSubscriber<[Int], Never>) {
        let scheduler = HandRunScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<[Int], Never>()
        subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(subscriber)
        return (scheduler, subject, subscriber)
    }

    @Test("two groups filled by count, their actions run the other way round")
    func countGroupsWhoseActionsRunReversed() {
        let (scheduler, subject, subscriber) = Self.collectingPairs()
        for value in 1...4 { subject.send(value) }
        scheduler.runPendingNewestFirst()
        // Before: [[3, 4], [1, 2]], each action publishing the group it was scheduled for.
        #expect(subscriber.values == [[1, 2], [3, 4]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test("a group filled by count, then the timer's group before its action runs")
    func timerGroupAfterACountGroup() {
        let (scheduler, subject, subscriber) = Self.collectingPairs()
        subject.send(1)
        subject.send(2)  // fills [1, 2]: its publishing action waits
        subject.send(3)
        scheduler.fireTimers()  // the timer's group, [3]
        scheduler.runPendingNewestFirst()
        // Before: [[3], [1, 2]], the timer's group going out at once.
        #expect(subscriber.values == [[1, 2], [3]])
        subject.send(completion: .finished)
        scheduler.runPendingNewestFirst()
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test("a group filled by count waiting for its action goes out before the completion")
    func countGroupBeforeTheCompletion() {
        let (scheduler, subject, subscriber) = Self.collectingPairs()
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        scheduler.runPendingNewestFirst()
        #expect(subscriber.values == [[1, 2], [3]])
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test("four threads sending through a serial queue: every value once, each thread's in order")
    func fourSendersOnAQueue() async {
        await offThePool {
            let rounds = runningUnderSanitizer ? 2 : 5
            let perSender = 2_000
            for _ in 0..<rounds {
                let subject = PassthroughSubject<Int, Never>()
                let done = DispatchSemaphore(value: 0)
                let subscriber = TestSubscriber<[Int], Never>(onCompletion: { _ in done.signal() })
                subject.collect(.byTimeOrCount(DispatchQueue(label: "collect"), .microseconds(200), 7)).subscribe(
                    subscriber)
                let shared = UncheckedSendableSubject(subject)
                runOverlapping(threads: 4) { sender in
                    for index in 0..<perSender { shared.subject.send(sender * perSender + index) }
                }
                subject.send(completion: .finished)
                Stress.wait(for: done)
                #expect(subscriber.violations.isEmpty)
                Stress.expectEveryValueInSenderOrder(subscriber.values.flatMap { $0 }, senders: 4, perSender: perSender)
            }
        }
    }
}

/// A subject handed to the sending threads (its own lock makes that safe).
struct UncheckedSendableSubject: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>
    init(_ subject: PassthroughSubject<Int, Never>) { self.subject = subject }
}

@Suite("A subject lets go of the upstream subscriptions that were cancelled")
struct SubjectUpstreamReleaseTests {
    @Test("multicast(subject:).autoconnect(): 1,000 cycles of subscribe, send, cancel leave none behind")
    func autoconnectCycles() {
        let upstream = PassthroughSubject<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let shared = upstream.multicast(subject: subject).autoconnect()
        var received = 0
        for value in 0..<1_000 {
            let cancellable = shared.sink { _ in received += 1 }
            upstream.send(value)
            cancellable.cancel()
        }
        #expect(received == 1_000)
        // Before: 1,000, one per connection, kept until the subject completes or goes away.
        #expect(subject.core.lock.withLock { subject.core.upstreams.count } == 0)
    }

    @Test("a cancelled subscription of a CurrentValueSubject to its upstream is let go; a live one is kept")
    func currentValueSubject() async {
        await offThePool {
            let subject = CurrentValueSubject<Int, Never>(0)
            let first = Just(1).delay(for: .seconds(60), scheduler: DispatchQueue(label: "late")).subscribe(subject)
            let second = PassthroughSubject<Int, Never>().subscribe(subject)
            #expect(subject.core.lock.withLock { subject.core.upstreams.count } == 2)
            first.cancel()
            #expect(subject.core.lock.withLock { subject.core.upstreams.count } == 1)
            second.cancel()
            #expect(subject.core.lock.withLock { subject.core.upstreams.count } == 0)
        }
    }
}
