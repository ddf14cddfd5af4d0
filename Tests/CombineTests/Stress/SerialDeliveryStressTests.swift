// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Combine

/// The serial-delivery engine under floods (ARCHITECTURE.md, "Serial delivery"): the backlog
/// of events waiting for the delivering thread stays bounded whatever the number of senders,
/// a sender that finds it full waits and is woken, and the delivering thread's `send` returns
/// while others keep sending.
@Suite("Serial delivery under floods")
struct SerialDeliveryStressTests {
    /// A subscriber that takes its time over each value, records what it got and keeps its
    /// subscription, to read the backlog's peak.
    final class SlowRecorder: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never

        let lock = NSLock()
        var values: [Int] = []
        var completions = 0
        var subscription: Subscription?
        var inside = false
        var overlaps = 0
        let spin: Duration
        /// Cancels its subscription after this many values (nil: never).
        let cancelAfter: Int?

        init(spin: Duration, cancelAfter: Int? = nil) {
            self.spin = spin
            self.cancelAfter = cancelAfter
        }

        func receive(subscription: Subscription) {
            lock.withLock { self.subscription = subscription }
            subscription.request(.unlimited)
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            let cancelNow: Subscription? = lock.withLock {
                if inside { overlaps += 1 }
                inside = true
                values.append(input)
                return values.count == cancelAfter ? subscription : nil
            }
            let clock = ContinuousClock()
            let until = clock.now + spin
            while clock.now < until {}
            lock.withLock { inside = false }
            cancelNow?.cancel()
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {
            lock.withLock { completions += 1 }
        }

        /// The most events the subscription ever queued for its delivering thread.
        var peakBacklog: Int {
            let subscription = lock.withLock { self.subscription }
            guard let owner = subscription as? SerialDeliveryOwner else {
                Issue.record("the subscription has no serial delivery: \(String(describing: subscription))")
                return -1
            }
            return owner.peakBacklog
        }

        /// After a flood of `senders` × `perSender` values and a completion: every value once
        /// and in each sender's order, one completion, no overlapping call, and a backlog that
        /// was used and held at most `bound` events.
        func expectFloodDelivered(
            senders: Int, perSender: Int, peakAtMost bound: Int, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let peak = peakBacklog
            lock.withLock {
                Stress.expectEveryValueInSenderOrder(
                    values, senders: senders, perSender: perSender, sourceLocation: sourceLocation)
                #expect(completions == 1, sourceLocation: sourceLocation)
                #expect(overlaps == 0, sourceLocation: sourceLocation)
            }
            #expect(peak > 0, "peak backlog \(peak)", sourceLocation: sourceLocation)
            #expect(peak <= bound, "peak backlog \(peak)", sourceLocation: sourceLocation)
        }
    }

    /// The bound ARCHITECTURE.md states: 1,024 queued values, plus a completion and the event
    /// of a thread taking over the delivering role.
    static let bound = 1_026

    @Test("4 senders × 3,000 values flood a slow subscriber: every value once, in order, backlog bounded")
    func floodIntoASlowSubscriberKeepsTheBacklogBounded() async {
        await offThePool {
            let senders = 4
            let perSender = 3_000
            let subject = PassthroughSubject<Int, Never>()
            let recorder = SlowRecorder(spin: .microseconds(20))
            subject.subscribe(recorder)
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            subject.send(completion: .finished)
            // 12,000 values at 20 µs each take at least 240 ms to deliver, far longer than the
            // senders need to queue them: without the bound the backlog holds most of them.
            recorder.expectFloodDelivered(senders: senders, perSender: perSender, peakAtMost: Self.bound)
        }
    }

    @Test("4 threads × 3,000 values into merge of 4 subjects, slow subscriber: every value once, in order, bounded")
    func floodIntoMergeKeepsTheBacklogBounded() async {
        await offThePool {
            let senders = 4
            let perSender = 3_000
            let subjects = (0..<senders).map { _ in PassthroughSubject<Int, Never>() }
            let recorder = SlowRecorder(spin: .microseconds(20))
            Publishers.MergeMany(subjects).subscribe(recorder)
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { subjects[sender].send(sender * perSender + index) }
            }
            for subject in subjects { subject.send(completion: .finished) }
            // merge queues first and then waits: one value over the limit per sending thread.
            recorder.expectFloodDelivered(senders: senders, perSender: perSender, peakAtMost: Self.bound - 2 + senders)
        }
    }

    @Test("A slow subscriber cancels during a flood: every waiting sender returns, nothing after the cancel")
    func cancelDuringAFloodWakesTheWaitingSenders() async {
        await offThePool {
            let senders = 4
            let perSender = 2_000
            let subject = PassthroughSubject<Int, Never>()
            let recorder = SlowRecorder(spin: .microseconds(20), cancelAfter: 1_500)
            subject.subscribe(recorder)
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { subject.send(sender * perSender + index) }
            }
            // Reaching here means no sender was left waiting for room that never came.
            recorder.lock.withLock {
                #expect(recorder.values.count == 1_500)
                Stress.expectSenderOrder(recorder.values, senders: senders, perSender: perSender)
                #expect(recorder.completions == 0)
                #expect(recorder.overlaps == 0)
            }
        }
    }

    @Test("The delivering thread's send returns while 2 other threads keep sending")
    func theDeliveringSenderReturnsWhileOthersKeepSending() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let flooding = Atomic<Bool>(false)
            let stop = Atomic<Bool>(false)
            let queuedByFlooders = Atomic<Int>(0)
            let delivered = Atomic<Int>(0)
            let cancellable = subject.sink { value in
                delivered.add(1, ordering: .relaxed)
                if value == -1 {
                    // The first value, sent by the main thread: it is now the delivering thread.
                    // Start the flood and keep this call going until the others have queued work.
                    flooding.store(true, ordering: .releasing)
                    while queuedByFlooders.load(ordering: .acquiring) < 100 {}
                }
                let clock = ContinuousClock()
                let until = clock.now + .microseconds(1)
                while clock.now < until {}
            }
            let flooders = DispatchGroup()
            for flooder in 0..<2 {
                flooders.enter()
                Thread {
                    while !flooding.load(ordering: .acquiring) {}
                    // Sends until told to stop, or for 10 seconds if the main thread's send never
                    // returns.
                    let deadline = ContinuousClock.now + .seconds(10)
                    var index = 0
                    while !stop.load(ordering: .acquiring) && ContinuousClock.now < deadline {
                        subject.send(flooder * 1_000_000_000 + index)
                        queuedByFlooders.add(1, ordering: .relaxed)
                        index += 1
                    }
                    flooders.leave()
                }.start()
            }
            subject.send(-1)
            // The send returned: the flooders must still be going (they stop only when told).
            let returnedDuringFlood = !stop.load(ordering: .acquiring) && flooders.wait(timeout: .now()) == .timedOut
            stop.store(true, ordering: .releasing)
            flooders.wait()
            #expect(returnedDuringFlood, "the delivering thread's send only returned when the flood ended")
            #expect(delivered.load(ordering: .relaxed) > 100)
            cancellable.cancel()
        }
    }

    /// What a ``CallProbe`` saw; outlives the probe, so that its `deinit` can report.
    final class ProbeRecord: Sendable {
        let inCall = Atomic<Bool>(false)
        let entered = Atomic<Int>(0)
        let enteredAfterCancel = Atomic<Int>(0)
        let cancelReturned = Atomic<Bool>(false)
        let releasedDuringCall = Atomic<Bool>(false)
        let released = Atomic<Bool>(false)
    }

    /// A subscriber that keeps its subscription (so only the subject letting go of it can free
    /// it) and takes a few microseconds over each value.
    final class CallProbe: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        let record: ProbeRecord
        let lock = NSLock()
        var subscription: Subscription?

        init(_ record: ProbeRecord) { self.record = record }

        deinit {
            if record.inCall.load(ordering: .acquiring) { record.releasedDuringCall.store(true, ordering: .relaxed) }
            record.released.store(true, ordering: .releasing)
        }

        func receive(subscription: Subscription) {
            lock.withLock { self.subscription = subscription }
            subscription.request(.unlimited)
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            record.inCall.store(true, ordering: .releasing)
            if record.cancelReturned.load(ordering: .acquiring) { record.enteredAfterCancel.add(1, ordering: .relaxed) }
            record.entered.add(1, ordering: .relaxed)
            let until = ContinuousClock.now + .microseconds(5)
            while ContinuousClock.now < until {}
            record.inCall.store(false, ordering: .releasing)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}
    }

    /// What the rounds of a cancel racing deliveries saw
    /// (``cancelRacingDeliveries(rounds:senders:values:beforeCancel:)``).
    struct CancelOutcome {
        /// Rounds in which the subscriber was let go during one of its calls.
        var releasedDuringCall = 0
        /// Rounds in which it was never let go.
        var leaked = 0
        /// Rounds in which more than the one value on its way arrived after the cancel returned.
        var lateCalls = 0
        /// Rounds in which the cancel came before every value was delivered.
        var cancelledMidFlood = 0
    }

    /// Runs `rounds` rounds of: `senders` threads sending `values` values each into a subject
    /// whose subscriber is a ``CallProbe``, while one more thread cancels the subscription after
    /// `beforeCancel(round, record)` returns.
    func cancelRacingDeliveries(
        rounds: Int, senders: Int, values: Int, beforeCancel: @escaping @Sendable (Int, ProbeRecord) -> Void
    ) -> CancelOutcome {
        var outcome = CancelOutcome()
        for round in 0..<rounds {
            let subject = PassthroughSubject<Int, Never>()
            let record = ProbeRecord()
            nonisolated(unsafe) let subscription: Subscription? = {
                let probe = CallProbe(record)
                subject.subscribe(probe)
                return probe.lock.withLock { probe.subscription }
            }()
            runOverlapping(threads: senders + 1) { side in
                if side < senders {
                    for value in 0..<values { subject.send(value) }
                } else {
                    beforeCancel(round, record)
                    subscription?.cancel()
                    record.cancelReturned.store(true, ordering: .releasing)
                }
            }
            if record.entered.load(ordering: .acquiring) < values * senders { outcome.cancelledMidFlood += 1 }
            if record.releasedDuringCall.load(ordering: .acquiring) { outcome.releasedDuringCall += 1 }
            if !record.released.load(ordering: .acquiring) { outcome.leaked += 1 }
            // Only a value already on its way when the cancel returned may still arrive.
            if record.enteredAfterCancel.load(ordering: .acquiring) > 1 { outcome.lateCalls += 1 }
        }
        return outcome
    }

    // A send that finds nobody delivering takes the role and calls the subscriber without the
    // subject's or the subscription's lock, so a cancel from another thread must not let go of
    // the subscriber during that call: the delivering thread lets go of it when the call returns.
    @Test(
        "A cancel from another thread during a call: the subscriber is let go after that call, never during it; 400 rounds"
    )
    func cancelFromAnotherThreadDuringACall() async {
        await offThePool {
            // A hundred under a sanitizer, which makes each round's threads and spins slow (400
            // rounds took six minutes under ThreadSanitizer).
            let rounds = runningUnderSanitizer ? 100 : 400
            let outcome = cancelRacingDeliveries(rounds: rounds, senders: 1, values: 200) { round, record in
                // Every other round waits for a call to be under way; the others cancel at once. The
                // wait ends too when every value is in (on a busy machine the sender may be done
                // before this thread first looks: that round then cancels after the flood, as the
                // wait used to, spinning out its five seconds, 200 rounds in a row).
                guard round % 2 == 0 else { return }
                let deadline = ContinuousClock.now + .seconds(5)
                while !record.inCall.load(ordering: .acquiring) && record.entered.load(ordering: .relaxed) < 200
                    && ContinuousClock.now < deadline
                {
                    sched_yield()
                }
            }
            #expect(outcome.releasedDuringCall == 0)
            #expect(outcome.leaked == 0, "the subscriber was not let go in \(outcome.leaked) of \(rounds) rounds")
            #expect(
                outcome.lateCalls == 0,
                "more than the value on its way came after the cancel: \(outcome.lateCalls) rounds")
        }
    }

    // With two threads sending, one delivers and the other's values wait in the backlog for it.
    // A cancel from a third thread must stop the delivery after the call under way: the values
    // still queued are dropped, and the subscriber is let go by the delivering thread, after
    // its call. (A delivering loop that did not look for the cancel between queued values made
    // late calls in 162 of 200 rounds.)
    @Test(
        "A cancel from another thread while two threads send: the queued values are dropped, the subscriber let go after the call; 200 rounds"
    )
    func cancelFromAnotherThreadWhileValuesWait() async {
        await offThePool {
            let rounds = runningUnderSanitizer ? 50 : 200
            let outcome = cancelRacingDeliveries(rounds: rounds, senders: 2, values: 300) { _, record in
                // Cancel once a few calls have been made, while both threads still send; waiting
                // asleep, so that the two senders have the two cores and one queues for the other.
                let deadline = ContinuousClock.now + .seconds(5)
                while record.entered.load(ordering: .acquiring) < 20 && ContinuousClock.now < deadline {
                    usleep(20)
                }
            }
            #expect(outcome.releasedDuringCall == 0)
            #expect(outcome.leaked == 0, "the subscriber was not let go in \(outcome.leaked) of \(rounds) rounds")
            #expect(
                outcome.lateCalls == 0,
                "more than the value on its way came after the cancel: \(outcome.lateCalls) rounds")
            // The cancel came while values were still being sent in most rounds (each call takes
            // 5 µs, 600 values take 3 ms): queued values were there to drop.
            #expect(outcome.cancelledMidFlood > rounds / 2)
        }
    }

}
