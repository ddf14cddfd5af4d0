// SPDX-License-Identifier: Apache-2.0
import Baseline
import Dispatch
import Foundation
import Synchronization

// One source for two targets: `OursScenarios` compiles it against this library,
// `OpenCombineScenarios` (through a symbolic link, with OPENCOMBINE defined) against
// OpenCombine 0.14.0, so both run exactly the same code.
#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
#else
@_spi(Diagnostics) import Combine
import CombineExtras
#endif

/// The benchmark scenarios; each returns a checksum so that nothing is optimised away.
public enum Scenarios {
    public static func sequenceMapFilterSink(_ count: Int) -> Int {
        var sum = 0
        _ = (0..<count).publisher.map { $0 &* 2 }.filter { $0 % 3 == 0 }.sink { sum &+= $0 }
        return sum
    }

    public static func subjectToOneSink(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// The most common pipeline of an app: a subject feeding `map`, `filter` and a sink.
    public static func subjectMapFilterSink(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &* 2 }.filter { $0 % 3 == 0 }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    public static func subjectToHundredSinks(_ sends: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellables = (0..<100).map { _ in subject.sink { sum &+= $0 } }
        for value in 0..<sends { subject.send(value) }
        for cancellable in cancellables { cancellable.cancel() }
        return sum
    }

    public static func subscribeAndCancel(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var total = 0
        for _ in 0..<count {
            let cancellable = subject.map { $0 + 1 }.sink { total &+= $0 }
            cancellable.cancel()
        }
        return total
    }

    public static func liveSubscriptions(_ count: Int) -> [Any] {
        let subject = PassthroughSubject<Int, Never>()
        return (0..<count).map { _ in subject.map { $0 + 1 }.sink { _ in } }
    }

    public static func chainOfFiftyMaps(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var publisher = subject.eraseToAnyPublisher()
        for _ in 0..<50 { publisher = publisher.map { $0 &+ 1 }.eraseToAnyPublisher() }
        var sum = 0
        let cancellable = publisher.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    public static func currentValueSet(_ count: Int) -> Int {
        let subject = CurrentValueSubject<Int, Never>(0)
        var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        for value in 0..<count { subject.value = value }
        cancellable.cancel()
        return sum
    }

    public static func oneAtATime(_ count: Int) -> Int {
        final class OneAtATimeSubscriber: Subscriber {
            typealias Input = Int
            typealias Failure = Never
            var sum = 0
            func receive(subscription: Subscription) { subscription.request(.max(1)) }
            func receive(_ input: Int) -> Subscribers.Demand {
                sum &+= input
                return .max(1)
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subscriber = OneAtATimeSubscriber()
        (0..<count).publisher.subscribe(subscriber)
        return subscriber.sum
    }

    /// Runs `body` on two threads at once and waits for both.
    static func runOnTwoThreads(_ body: @escaping @Sendable () -> Void) {
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) { body() }
        }
        group.wait()
    }

    public static func twoThreadsSending(_ count: Int) -> Int {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()  // not Sendable, as Apple's
        nonisolated(unsafe) var sum = 0
        let cancellable = subject.sink { sum &+= $0 }
        runOnTwoThreads { for value in 0..<count / 2 { subject.send(value) } }
        cancellable.cancel()
        return sum
    }

    public static func justSink(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            _ = Just(value).sink { sum &+= $0 }
        }
        return sum
    }

    public static func flatMapJust(_ count: Int) -> Int {
        var sum = 0
        _ = (0..<count).publisher.flatMap { Just($0) }.sink { sum &+= $0 }
        return sum
    }

    public static func scanRemoveDuplicatesCompactMap(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.scan(0) { $0 &+ $1 / 4 }.removeDuplicates().compactMap { $0 % 2 == 0 ? $0 : nil }
            .sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    public static func zipTwoSubjects(_ count: Int) -> Int {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = a.zip(b).sink { sum &+= $0 &+ $1 }
        for value in 0..<count {
            a.send(value)
            b.send(value)
        }
        cancellable.cancel()
        return sum
    }

    // OpenCombine 0.14.0 has neither combineLatest nor merge: those scenarios show n/a.
    #if !OPENCOMBINE
    public static func combineLatestTwoSubjects(_ count: Int) -> Int {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = a.combineLatest(b).sink { sum &+= $0 &+ $1 }
        for value in 0..<count {
            a.send(value)
            b.send(value)
        }
        cancellable.cancel()
        return sum
    }

    public static func mergeTwoSubjects(_ count: Int) -> Int {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = a.merge(with: b).sink { sum &+= $0 }
        for value in 0..<count / 2 {
            a.send(value)
            b.send(value)
        }
        cancellable.cancel()
        return sum
    }
    #endif

    /// Setting a `@Published` property with one sink on its publisher.
    public static func publishedSet(_ count: Int) -> Int {
        let model = PublishedModel()
        var sum = 0
        let cancellable = model.$value.sink { sum &+= $0 }
        for value in 0..<count { model.value = value }
        cancellable.cancel()
        return sum
    }

    // MARK: Contended sends (issue 16): threads released from one barrier, so they overlap

    /// Runs `body(thread)` on `threads` new threads that all start from one spinning barrier
    /// (two blocks handed to a global queue mostly run one after the other and hide contention).
    static func runOverlapping(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let arrived = Atomic<Int>(0)
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            let worker = Thread {
                arrived.add(1, ordering: .acquiringAndReleasing)
                while arrived.load(ordering: .acquiring) < threads {}
                body(thread)
                done.leave()
            }
            worker.start()
        }
        done.wait()
    }

    /// Starts the record of the most events queued for one subscriber's delivering thread.
    public static func resetPeakBacklog() {
        #if !OPENCOMBINE
        SerialDeliveryDiagnostics.reset()
        #endif
    }

    /// The most events queued for one subscriber's delivering thread since
    /// ``resetPeakBacklog()``; `nil` for OpenCombine, which has no such queue (a sender waits
    /// for the subscriber's lock).
    public static var peakBacklog: Int? {
        #if OPENCOMBINE
        nil
        #else
        SerialDeliveryDiagnostics.peakBacklog
        #endif
    }

    /// `threads` threads send `count` values in all into one subject with `sinks` sinks.
    public static func contendedSubject(_ count: Int, threads: Int, sinks: Int) -> Int {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()  // not Sendable, as Apple's
        // One total per sink: each sink is called one value at a time, but two sinks may be
        // called at once from different threads.
        let totals = (0..<sinks).map { _ in SinkTotal() }
        let cancellables = totals.map { total in subject.sink { total.sum &+= $0 } }
        runOverlapping(threads: threads) { _ in for value in 0..<count / threads { subject.send(value) } }
        for cancellable in cancellables { cancellable.cancel() }
        return totals.reduce(0) { $0 &+ $1.sum }
    }

    /// Four threads flood one subject whose sink takes about a microsecond per value, for
    /// `seconds` seconds; `report(second, residentMiB)` is called once a second. Returns the
    /// number of values sent; returns only when every sender's `send` has returned.
    public static func flood(seconds: Int, report: (Int, Double) -> Void) -> Int {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()  // not Sendable, as Apple's
        let total = SinkTotal()
        let cancellable = subject.sink { value in
            total.sum &+= value
            let until = DispatchTime.now().uptimeNanoseconds + 1_000
            while DispatchTime.now().uptimeNanoseconds < until {}
        }
        let stop = Atomic<Bool>(false)
        let sent = Atomic<Int>(0)
        let senders = DispatchGroup()
        for _ in 0..<4 {
            senders.enter()
            Thread {
                var count = 0
                while !stop.load(ordering: .relaxed) {
                    subject.send(count)
                    count += 1
                }
                sent.add(count, ordering: .relaxed)
                senders.leave()
            }.start()
        }
        for second in 1...seconds {
            Thread.sleep(forTimeInterval: 1)
            report(second, residentMiB())
        }
        stop.store(true, ordering: .relaxed)
        senders.wait()
        cancellable.cancel()
        return sent.load(ordering: .relaxed)
    }

    /// The process's resident memory, from `/proc/self/statm`.
    static func residentMiB() -> Double {
        let text = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        let fields = text.split(separator: " ")
        let pages = fields.count > 1 ? Double(fields[1]) ?? 0 : 0
        return pages * 4096 / 1_048_576
    }

    final class SinkTotal: @unchecked Sendable {
        var sum = 0
    }

    #if !OPENCOMBINE  // OpenCombine 0.14.0 has no merge
    /// Two threads, each feeding one of two merged subjects.
    public static func contendedMerge(_ count: Int) -> Int {
        nonisolated(unsafe) let subjects = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        nonisolated(unsafe) var sum = 0
        let cancellable = subjects[0].merge(with: subjects[1]).sink { sum &+= $0 }
        runOverlapping(threads: 2) { thread in for value in 0..<count / 2 { subjects[thread].send(value) } }
        cancellable.cancel()
        return sum
    }
    #endif

    /// `flatMap` of two inner subjects, each fed from its own thread.
    public static func contendedFlatMap(_ count: Int) -> Int {
        // Not Sendable, as Apple's.
        nonisolated(unsafe) let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        nonisolated(unsafe) var sum = 0
        let cancellable = inners.publisher.flatMap { $0 }.sink { sum &+= $0 }
        runOverlapping(threads: 2) { thread in for value in 0..<count / 2 { inners[thread].send(value) } }
        cancellable.cancel()
        return sum
    }

    /// Two threads sending into one subject delivered with `receive(on:)` a serial queue.
    public static func contendedReceiveOn(_ count: Int) -> Int {
        let queue = DispatchQueue(label: "benchmark.contended-receive-on")
        #if OPENCOMBINE
        let scheduler = queue.ocombine
        #else
        let scheduler = queue
        #endif
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()  // not Sendable, as Apple's
        let expected = count / 2 * 2
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var sum = 0
        nonisolated(unsafe) var received = 0
        let cancellable = subject.receive(on: scheduler).sink { value in
            sum &+= value
            received += 1
            if received == expected { done.signal() }
        }
        runOverlapping(threads: 2) { _ in for value in 0..<count / 2 { subject.send(value) } }
        done.wait()
        cancellable.cancel()
        return sum
    }

    /// `receive(on:)` a serial queue: values sent on this thread, delivered on the queue.
    public static func receiveOnSerialQueue(_ count: Int) -> Int {
        let queue = DispatchQueue(label: "benchmark.receive-on")
        #if OPENCOMBINE
        let scheduler = queue.ocombine
        #else
        let scheduler = queue
        #endif
        let subject = PassthroughSubject<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        var sum = 0
        let cancellable = subject.receive(on: scheduler).sink(
            receiveCompletion: { _ in done.signal() }, receiveValue: { sum &+= $0 })
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
        done.wait()
        cancellable.cancel()
        return sum
    }

    /// `delay` of 1 ms on a serial `DispatchQueue`: every value waits in the queue's timers.
    public static func delayOnQueue(_ count: Int) -> Int {
        let queue = DispatchQueue(label: "benchmark.delay")
        #if OPENCOMBINE
        let scheduler = queue.ocombine
        #else
        let scheduler = queue
        #endif
        return delayThrough(count) { $0.delay(for: .milliseconds(1), scheduler: scheduler).eraseToAnyPublisher() }
    }

    /// Sends `count` values through `stage` and waits for its completion.
    private static func delayThrough(
        _ count: Int, _ stage: (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>
    ) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        let state = Completion()
        let cancellable = stage(subject).sink(
            receiveCompletion: { _ in state.done.signal() }, receiveValue: { state.sum &+= $0 })
        for value in 0..<count { subject.send(value) }
        subject.send(completion: .finished)
        state.done.wait()
        cancellable.cancel()
        return state.sum
    }

    #if !OPENCOMBINE
    /// `delay` of 1 ms on `ContinuousClock().scheduler`: the clock scheduler's heap holds the
    /// values' actions.
    public static func delayOnClockScheduler(_ count: Int) -> Int {
        let scheduler = ContinuousClock().scheduler
        return delayThrough(count) { $0.delay(for: .milliseconds(1), scheduler: scheduler).eraseToAnyPublisher() }
    }

    /// One clock scheduler per size, holding that many repeating actions due in an hour
    /// (never run: cancelled by nobody, kept for the whole process).
    nonisolated(unsafe) private static var pendingSchedulers: [Int: ClockScheduler<ContinuousClock>] = [:]
    nonisolated(unsafe) private static var pendingKeepAlive: [any Cancellable] = []

    /// Schedules a repeating action on a clock scheduler that already holds `pending` actions,
    /// then cancels it: the cost of one schedule and one cancel at that size.
    public static func clockScheduleAndCancel(_ count: Int, pending: Int) -> Int {
        let scheduler: ClockScheduler<ContinuousClock>
        if let existing = pendingSchedulers[pending] {
            scheduler = existing
        } else {
            scheduler = ContinuousClock().scheduler
            let start = scheduler.now.advanced(by: .seconds(3_600))
            for index in 0..<pending {
                pendingKeepAlive.append(
                    scheduler.schedule(
                        after: start.advanced(by: .milliseconds(index % 1_000)), interval: .seconds(3_600),
                        tolerance: .zero, options: nil, {}))
            }
            pendingSchedulers[pending] = scheduler
        }
        let start = scheduler.now.advanced(by: .seconds(3_600))
        var sum = 0
        for index in 0..<count {
            let cancellable = scheduler.schedule(
                after: start.advanced(by: .milliseconds(index &* 7 % 1_000)), interval: .seconds(3_600),
                tolerance: .zero, options: nil, {})
            cancellable.cancel()
            sum &+= index
        }
        return sum
    }
    #endif

    /// `debounce` on a virtual-time scheduler: bursts of 10 values, then a quiet period; one
    /// value in ten goes through. Both libraries run the same minimal scheduler below.
    public static func debounceVirtualTime(_ count: Int) -> Int {
        let scheduler = BenchmarkScheduler()
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.debounce(for: .nanoseconds(10), scheduler: scheduler).sink { sum &+= $0 }
        for value in 0..<count {
            subject.send(value)
            if value % 10 == 9 { scheduler.advance(by: 20) }
        }
        cancellable.cancel()
        return sum
    }
}

/// A class with one `@Published` property.
final class PublishedModel {
    @Published var value = 0
}

/// A minimal virtual-time scheduler, the same code for both libraries: actions run when the
/// benchmark advances the clock, in due order.
final class BenchmarkScheduler: Scheduler {
    struct Time: Strideable {
        var ticks: Int
        func distance(to other: Time) -> Stride { Stride(other.ticks - ticks) }
        func advanced(by n: Stride) -> Time { Time(ticks: ticks + n.ticks) }
    }

    struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric {
        var ticks: Int
        init(_ ticks: Int) { self.ticks = ticks }
        init(integerLiteral value: Int) { ticks = value }
        init?<T: BinaryInteger>(exactly source: T) {
            guard let value = Int(exactly: source) else { return nil }
            ticks = value
        }
        var magnitude: Int { abs(ticks) }
        static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.ticks < rhs.ticks }
        static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks + rhs.ticks) }
        static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks - rhs.ticks) }
        static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.ticks * rhs.ticks) }
        static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
        static func seconds(_ s: Int) -> Stride { Stride(s * 1_000_000_000) }
        static func seconds(_ s: Double) -> Stride { Stride(Int(s * 1e9)) }
        static func milliseconds(_ ms: Int) -> Stride { Stride(ms * 1_000_000) }
        static func microseconds(_ us: Int) -> Stride { Stride(us * 1_000) }
        static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
    }

    private var actions: [(due: Time, order: Int, action: () -> Void)] = []
    private var order = 0
    private(set) var now = Time(ticks: 0)
    var minimumTolerance: Stride { 0 }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        schedule(after: now, tolerance: 0, options: nil, action)
    }

    func schedule(after date: Time, tolerance: Stride, options: Never?, _ action: @escaping () -> Void) {
        actions.append((date, order, action))
        order += 1
    }

    func schedule(
        after date: Time, interval: Stride, tolerance: Stride, options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, tolerance: tolerance, options: nil, action)
        return AnyCancellable {}
    }

    func advance(by stride: Stride) {
        let end = now.advanced(by: stride)
        while let index = actions.indices.filter({ actions[$0].due <= end })
            .min(by: { (actions[$0].due, actions[$0].order) < (actions[$1].due, actions[$1].order) })
        {
            let next = actions.remove(at: index)
            now = Swift.max(now, next.due)
            next.action()
        }
        now = end
    }
}

extension BenchmarkScheduler.Time: Comparable {
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.ticks < rhs.ticks }
}

// MARK: Waiting for a completion (delay, and the bridges in ConcurrencyScenarios.swift)

/// Waits for a publisher's completion (the values go to `sum`): the benchmark bodies are
/// synchronous, the bridges deliver from tasks.
final class Completion: @unchecked Sendable {
    var sum = 0
    let done = DispatchSemaphore(value: 0)
}
