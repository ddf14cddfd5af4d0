// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// A few bounded tests on the real schedulers: each waits for an event with a generous
/// timeout and asserts order and presence, never exact timing. "No more actions after cancel"
/// is checked by waiting for a marker scheduled several intervals later on the same serial
/// scheduler: had the repetition not stopped, it would have run again before the marker.
@Suite("Real schedulers")
struct RealSchedulerTests {
    // MARK: DispatchQueue

    @Test func dispatchQueueRunsAnActionAsynchronouslyInItsGroup() async {
        await offThePool {
            let queue = DispatchQueue(label: "immediate")
            let group = DispatchGroup()
            let ran = LockedValue(false)
            queue.schedule(options: .init(qos: .userInitiated, group: group)) { ran.withLock { $0 = true } }
            #expect(group.wait(timeout: .now() + generousTimeout) == .success)
            #expect(ran.current)
        }
    }

    @Test func dispatchQueueRunsADelayedActionNotBeforeItsDate() async {
        await offThePool {
            let queue = DispatchQueue(label: "delayed")
            let due = queue.now.advanced(by: .milliseconds(20))
            let ranAt = LockedValue<DispatchTime?>(nil)
            let done = DispatchSemaphore(value: 0)
            queue.schedule(after: due) {
                ranAt.withLock { $0 = .now() }
                done.signal()
            }
            #expect(done.waitGenerously())
            let time = ranAt.current
            #expect(time.map { $0 >= due.dispatchTime } == true)
        }
    }

    @Test func dispatchQueueRepeatsUntilCancelled() async {
        await offThePool {
            let queue = DispatchQueue(label: "repeating")
            let counter = TickCounter(signallingAt: 3)
            let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5)) { counter.increment() }
            #expect(counter.waitForTarget())
            cancellable.cancel()
            queue.sync {}
            let countAtCancel = counter.value
            let marker = DispatchSemaphore(value: 0)
            queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) { marker.signal() }
            #expect(marker.waitGenerously())
            #expect(counter.value == countAtCancel)
        }
    }

    @Test func dispatchQueueRepetitionStopsWhenItsCancellableIsReleased() async {
        await offThePool {
            let queue = DispatchQueue(label: "released")
            let counter = TickCounter(signallingAt: 2)
            do {
                let cancellable = AnyCancellable(
                    queue.schedule(after: queue.now, interval: .milliseconds(5)) { counter.increment() })
                #expect(counter.waitForTarget())
                _ = cancellable
            }
            queue.sync {}
            let countAtRelease = counter.value
            let marker = DispatchSemaphore(value: 0)
            queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) { marker.signal() }
            #expect(marker.waitGenerously())
            #expect(counter.value == countAtRelease)
        }
    }

    // MARK: RunLoop

    @Test func runLoopRunsActionsOnItsThreadInOrder() async {
        await offThePool {
            let thread = RunLoopThread()
            defer { thread.stop() }
            let order = LockedValue<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let onThread = LockedValue(true)
            let runLoop = thread.runLoop!
            let due = runLoop.now.advanced(by: .milliseconds(20))
            runLoop.schedule(after: due) {
                if !thread.isCurrent { onThread.withLock { $0 = false } }
                order.withLock { $0.append("delayed") }
                done.signal()
            }
            runLoop.schedule {
                if !thread.isCurrent { onThread.withLock { $0 = false } }
                order.withLock { $0.append("immediate") }
            }
            #expect(done.waitGenerously())
            #expect(order.current == ["immediate", "delayed"])
            #expect(onThread.current)
            #expect(Date() >= due.date)
        }
    }

    @Test func runLoopRepeatsUntilCancelled() async {
        await offThePool {
            let thread = RunLoopThread()
            defer { thread.stop() }
            let runLoop = thread.runLoop!
            let counter = TickCounter(signallingAt: 3)
            let cancellable = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) { counter.increment() }
            #expect(counter.waitForTarget())
            cancellable.cancel()
            let marker = DispatchSemaphore(value: 0)
            let countAtMarker = LockedValue(-1)
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(50))) {
                countAtMarker.withLock { $0 = counter.value }
                marker.signal()
            }
            let countAtCancel = counter.value
            #expect(marker.waitGenerously())
            #expect(countAtMarker.current <= countAtCancel + 1)
            #expect(counter.value == countAtMarker.current)
        }
    }

    // MARK: OperationQueue

    @Test func operationQueueRunsImmediateAndDelayedActions() async {
        await offThePool {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let order = LockedValue<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let due = queue.now.advanced(by: .milliseconds(20))
            queue.schedule(after: due) {
                order.withLock { $0.append("delayed") }
                done.signal()
            }
            queue.schedule { order.withLock { $0.append("immediate") } }
            #expect(done.waitGenerously())
            #expect(order.current == ["immediate", "delayed"])
            #expect(Date() >= due.date)
        }
    }

    @Test func operationQueueRepeatsUntilCancelled() async {
        await offThePool {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let counter = TickCounter(signallingAt: 3)
            let cancellable = queue.schedule(after: queue.now, interval: .milliseconds(5)) { counter.increment() }
            #expect(counter.waitForTarget())
            cancellable.cancel()
            let countAtCancel = counter.value
            let marker = DispatchSemaphore(value: 0)
            queue.schedule(after: queue.now.advanced(by: .milliseconds(50))) { marker.signal() }
            #expect(marker.waitGenerously())
            queue.waitUntilAllOperationsAreFinished()
            #expect(counter.value <= countAtCancel + 1)
        }
    }

    // MARK: Timer.publish

    @Test func timerPublisherTicksOnItsRunLoopUntilCancelled() async {
        await offThePool {
            let thread = RunLoopThread()
            defer { thread.stop() }
            let runLoop = thread.runLoop!
            let counter = TickCounter(signallingAt: 3)
            let onThread = LockedValue(true)
            let cancellable = Timer.publish(every: 0.005, on: runLoop, in: .default)
                .autoconnect()
                .sink { _ in
                    if !thread.isCurrent { onThread.withLock { $0 = false } }
                    counter.increment()
                }
            #expect(counter.waitForTarget())
            let marker = DispatchSemaphore(value: 0)
            let countAtCancel = LockedValue(-1)
            runLoop.schedule {
                cancellable.cancel()
                countAtCancel.withLock { $0 = counter.value }
            }
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(50))) { marker.signal() }
            #expect(marker.waitGenerously())
            #expect(counter.value == countAtCancel.current)
            #expect(onThread.current)
        }
    }

    @Test func timerPublisherDropsTicksBeyondDemandAndWaitsForConnect() async {
        await offThePool {
            let thread = RunLoopThread()
            defer { thread.stop() }
            let runLoop = thread.runLoop!
            let publisher = Timer.publish(every: 0.005, tolerance: 0.001, on: runLoop, in: .default)
            // As Apple's, `publish` drops the tolerance; the initialiser keeps it.
            #expect(publisher.interval == 0.005 && publisher.tolerance == nil)
            let withTolerance = Timer.TimerPublisher(
                interval: 0.005, tolerance: 0.001, runLoop: runLoop, mode: .default)
            #expect(withTolerance.tolerance == 0.001)
            #expect(publisher.runLoop === runLoop && publisher.mode == .default && publisher.options == nil)
            let twoTicks = DispatchSemaphore(value: 0)
            let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(2))
            publisher.subscribe(subscriber)
            let beforeConnect = DispatchSemaphore(value: 0)
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(30))) { beforeConnect.signal() }
            #expect(beforeConnect.waitGenerously())
            #expect(subscriber.values.isEmpty)

            let connection = publisher.connect()
            let watch = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) {
                if subscriber.values.count == 2 { twoTicks.signal() }
            }
            #expect(twoTicks.waitGenerously())
            watch.cancel()
            let later = DispatchSemaphore(value: 0)
            runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(50))) { later.signal() }
            #expect(later.waitGenerously())
            #expect(subscriber.values.count == 2)
            #expect(subscriber.violations.isEmpty)

            subscriber.request(.max(1))
            let third = DispatchSemaphore(value: 0)
            let thirdWatch = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) {
                if subscriber.values.count == 3 { third.signal() }
            }
            #expect(third.waitGenerously())
            thirdWatch.cancel()
            connection.cancel()
            #expect(subscriber.completion == nil)
        }
    }
}
