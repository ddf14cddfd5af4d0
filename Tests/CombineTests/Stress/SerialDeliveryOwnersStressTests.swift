// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import CombineTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Combine

/// The owners of the serial-delivery engine besides subjects and `QueuedSubscription`: `receive(on:)` and
/// `delay` (scheduled actions), `buffer` and `prefix(untilOutputFrom:)`, with their events
/// arriving on several threads at once (ARCHITECTURE.md, "Serial delivery").
@Suite("Serial delivery: scheduled actions, buffer, prefix(untilOutputFrom:)")
struct SerialDeliveryOwnersStressTests {
    /// Records values and overlapping calls, for subscribers built from closures.
    final class CallLog: @unchecked Sendable {
        let lock = NSLock()
        var values: [Int] = []
        var completions = 0
        var inside = false
        var overlaps = 0
        /// Whether a completion arrived while a value's call was still running.
        var completionInsideAValue = false

        func enter(_ value: Int) {
            lock.withLock {
                if inside { overlaps += 1 }
                inside = true
                values.append(value)
            }
        }

        func leave() {
            lock.withLock { inside = false }
        }

        func complete() {
            lock.withLock {
                if inside { completionInsideAValue = true }
                completions += 1
            }
        }
    }

    static func spin(_ duration: Duration) {
        let clock = ContinuousClock()
        let until = clock.now + duration
        while clock.now < until {}
    }

    /// The delivering action delivers what other actions left it only up to the engine's
    /// budget: then the next action to run takes the role over and the first one returns,
    /// although the others keep running actions.
    @Test("receive(on:): the delivering action returns while 2 other threads keep running actions")
    func theDeliveringActionReturnsWhileOthersKeepRunningActions() async {
        await offThePool {
            let count = 200_000
            let scheduler = HeldActionsScheduler()
            let subject = PassthroughSubject<Int, Never>()
            let log = CallLog()
            let flooding = Atomic<Bool>(false)
            let ranByFlooders = Atomic<Int>(0)
            let cancellable = subject.receive(on: scheduler).sink(
                receiveCompletion: { _ in log.complete() },
                receiveValue: { value in
                    log.enter(value)
                    if value == 0 {
                        // The first action's value: its thread is now the delivering one. Let the
                        // others run, and keep this call going until they have left it events.
                        flooding.store(true, ordering: .releasing)
                        while ranByFlooders.load(ordering: .acquiring) < 100 {}
                    }
                    Self.spin(.microseconds(1))
                    log.leave()
                })
            for value in 0..<count { subject.send(value) }
            subject.send(completion: .finished)
            let actions = scheduler.take()
            let next = Atomic<Int>(1)
            let stop = Atomic<Bool>(false)
            let flooders = DispatchGroup()
            for _ in 0..<2 {
                flooders.enter()
                Thread {
                    while !flooding.load(ordering: .acquiring) {}
                    while !stop.load(ordering: .acquiring) {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < actions.all.count else { break }
                        actions.all[index]()
                        ranByFlooders.add(1, ordering: .relaxed)
                    }
                    flooders.leave()
                }.start()
            }
            actions.all[0]()
            // The first action returned: the others must still have actions to run.
            let returnedDuringFlood = next.load(ordering: .relaxed) < actions.all.count
            stop.store(true, ordering: .releasing)
            flooders.wait()
            #expect(returnedDuringFlood, "the first action returned only when every action had run")
            // Run what the flooders left: everything then arrives, once and in order.
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < actions.all.count else { break }
                actions.all[index]()
            }
            log.lock.withLock {
                #expect(log.values == Array(0..<count))
                #expect(log.overlaps == 0)
                #expect(log.completions == 1)
                #expect(!log.completionInsideAValue)
            }
            cancellable.cancel()
        }
    }

    @Test(
        "buffer: values from one thread, requests for one value from two others: once each, in order, one call at a time"
    )
    func bufferWithRequestsFromOtherThreads() async {
        await offThePool {
            let count = 20_000
            let upstream = PassthroughSubject<Int, Never>()
            let log = CallLog()
            let subscription = LockedValue<Subscription?>(nil)
            let subscriber = AnySubscriber<Int, Never>(
                receiveSubscription: { received in subscription.withLock { $0 = received } },
                receiveValue: { value in
                    log.enter(value)
                    log.leave()
                    return .none
                },
                receiveCompletion: { _ in log.complete() })
            upstream.buffer(size: count, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
            runOverlapping(threads: 3) { thread in
                if thread == 0 {
                    for value in 0..<count { upstream.send(value) }
                    upstream.send(completion: .finished)
                } else {
                    let taken = subscription.withLock { $0 }
                    for _ in 0..<count / 2 { taken?.request(.max(1)) }
                }
            }
            log.lock.withLock { #expect(log.completions == 0) }
            // As Apple's, `.finished` waits for demand even when the buffer is empty.
            subscription.withLock { $0 }?.request(.max(1))
            log.lock.withLock {
                #expect(log.values == Array(0..<count))
                #expect(log.overlaps == 0)
                #expect(log.completions == 1)
                #expect(!log.completionInsideAValue)
            }
        }
    }

    @Test("prefix(untilOutputFrom:): a trigger firing on another thread during a value finishes after that call")
    func aTriggerFiringDuringADeliveryFinishesAfterIt() async {
        await offThePool {
            for _ in 0..<20 {
                let upstream = PassthroughSubject<Int, Never>()
                let trigger = PassthroughSubject<Void, Never>()
                let log = CallLog()
                let delivering = Atomic<Bool>(false)
                let fired = Atomic<Bool>(false)
                let completionThread = LockedValue<Thread?>(nil)
                let cancellable = upstream.prefix(untilOutputFrom: trigger).sink(
                    receiveCompletion: { _ in
                        completionThread.withLock { $0 = Thread.current }
                        log.complete()
                    },
                    receiveValue: { value in
                        log.enter(value)
                        delivering.store(true, ordering: .releasing)
                        while !fired.load(ordering: .acquiring) {}
                        Self.spin(.microseconds(50))
                        log.leave()
                    })
                let triggerThread = Thread {
                    while !delivering.load(ordering: .acquiring) {}
                    trigger.send(())
                    fired.store(true, ordering: .releasing)
                }
                triggerThread.start()
                upstream.send(1)
                let deliveringThread = Thread.current
                upstream.send(2)  // the upstream was cancelled by the trigger: dropped
                log.lock.withLock {
                    #expect(log.values == [1])
                    #expect(log.completions == 1)
                    #expect(!log.completionInsideAValue)
                }
                #expect(completionThread.withLock { $0 } === deliveringThread)
                cancellable.cancel()
            }
        }
    }

    /// An upstream must not send from two threads at once; one that does still gets calls into
    /// the subscriber one at a time, and the backlog stays bounded.
    @Test("prefix(untilOutputFrom:) under an upstream sending from 4 threads at once: one call at a time, bounded")
    func anUpstreamSendingFromFourThreads() async {
        await offThePool {
            let senders = 4
            let perSender = 3_000
            let upstream = TestPublisher<Int, Never>()
            let trigger = PassthroughSubject<Void, Never>()
            let recorder = SerialDeliveryStressTests.SlowRecorder(spin: .microseconds(20))
            upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
            runOverlapping(threads: senders) { sender in
                for index in 0..<perSender { upstream.send(sender * perSender + index) }
            }
            trigger.send(())
            recorder.expectFloodDelivered(
                senders: senders, perSender: perSender, peakAtMost: SerialDeliveryStressTests.bound)
        }
    }
}
