// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization

/// The same work as each scenario, written by hand with plain loops and closures: the
/// cost floor the library is measured against.
/// Returns its argument through a call the optimiser does not look into.
@inline(never)
@_optimize(none)
func opaque<T>(_ value: T) -> T {
    value
}

public enum Baseline {
    /// A closure kept where the optimiser can't see through it, like a pipeline stage's:
    /// without that, the loops below would be folded into constants.
    final class Stage<Input, Output> {
        let body: (Input) -> Output
        init(_ body: @escaping (Input) -> Output) { self.body = opaque(body) }
    }

    public static func sequenceMapFilterSink(_ count: Int) -> Int {
        var sum = 0
        let map = Stage<Int, Int> { $0 &* 2 }
        let filter = Stage<Int, Bool> { $0 % 3 == 0 }
        let sink = Stage<Int, Void> { sum &+= $0 }
        for value in 0..<count {
            let mapped = map.body(value)
            if filter.body(mapped) { sink.body(mapped) }
        }
        return sum
    }

    public static func subjectMapFilterSink(_ count: Int) -> Int {
        var sum = 0
        let map = Stage<Int, Int> { $0 &* 2 }
        let filter = Stage<Int, Bool> { $0 % 3 == 0 }
        let sink = Stage<Int, Void> { sum &+= $0 }
        let observers = [
            Stage<Int, Void> { value in
                let mapped = map.body(value)
                if filter.body(mapped) { sink.body(mapped) }
            }
        ]
        for value in 0..<count {
            for observer in observers { observer.body(value) }
        }
        return sum
    }

    public static func subjectToOneSink(_ count: Int) -> Int {
        var sum = 0
        let observers = [Stage<Int, Void> { sum &+= $0 }]
        for value in 0..<count {
            for observer in observers { observer.body(value) }
        }
        return sum
    }

    public static func subjectToHundredSinks(_ sends: Int) -> Int {
        var sum = 0
        let observers = (0..<100).map { _ in Stage<Int, Void> { sum &+= $0 } }
        for value in 0..<sends {
            for observer in observers { observer.body(value) }
        }
        return sum
    }

    public static func subscribeAndCancel(_ count: Int) -> Int {
        var total = 0
        var observers: [Int: Stage<Int, Void>] = [:]
        for id in 0..<count {
            let map = Stage<Int, Int> { $0 + 1 }
            observers[id] = Stage<Int, Void> { total &+= map.body($0) }
            observers[id] = nil
        }
        return total &+ observers.count
    }

    public static func liveSubscriptions(_ count: Int) -> [Any] {
        (0..<count).map { _ in
            let map = Stage<Int, Int> { $0 + 1 }
            return Stage<Int, Void> { _ = map.body($0) }
        }
    }

    public static func chainOfFiftyMaps(_ count: Int) -> Int {
        let stages = (0..<50).map { _ in Stage<Int, Int> { $0 &+ 1 } }
        var sum = 0
        for value in 0..<count {
            var current = value
            for stage in stages { current = stage.body(current) }
            sum &+= current
        }
        return sum
    }

    public static func currentValueSet(_ count: Int) -> Int {
        final class Holder {
            var onChange: (Int) -> Void = { _ in }
            var value = 0 {
                didSet { onChange(value) }
            }
        }
        let holder = Holder()
        var sum = 0
        holder.onChange = opaque({ sum &+= $0 })
        for value in 0..<count { holder.value = value }
        return sum
    }

    public static func oneAtATime(_ count: Int) -> Int {
        var sum = 0
        var demand = opaque(1)
        let receive = Stage<Int, Int> { value in
            sum &+= value
            return 1
        }
        var value = 0
        while value < count, demand > 0 {
            demand -= 1
            demand += receive.body(value)
            value += 1
        }
        return sum
    }

    public static func twoThreadsSending(_ count: Int) -> Int {
        let lock = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                for value in 0..<count / 2 { lock.withLock { $0 &+= value } }
            }
        }
        group.wait()
        return lock.withLock { $0 }
    }

    /// The contended scenarios' floor: `threads` threads, released from one barrier, adding
    /// into one total under a lock, `sinks` additions per value.
    public static func contended(_ count: Int, threads: Int, sinks: Int) -> Int {
        let lock = Mutex(0)
        let arrived = Atomic<Int>(0)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                arrived.add(1, ordering: .acquiringAndReleasing)
                while arrived.load(ordering: .acquiring) < threads {}
                for value in 0..<count / threads {
                    lock.withLock { total in for _ in 0..<sinks { total &+= value } }
                }
                done.leave()
            }.start()
        }
        done.wait()
        return lock.withLock { $0 }
    }

    public static func justSink(_ count: Int) -> Int {
        var sum = 0
        for value in 0..<count {
            let sink = Stage<Int, Void> { sum &+= $0 }
            sink.body(value)
        }
        return sum
    }

    public static func flatMapJust(_ count: Int) -> Int {
        var sum = 0
        let inner = Stage<Int, Int> { $0 }
        for value in 0..<count { sum &+= inner.body(value) }
        return sum
    }

    public static func scanRemoveDuplicatesCompactMap(_ count: Int) -> Int {
        var sum = 0
        var accumulator = 0
        var previous: Int?
        let scan = Stage<Int, Int> { value in
            accumulator = accumulator &+ value / 4
            return accumulator
        }
        for value in 0..<count {
            let scanned = scan.body(value)
            if scanned == previous { continue }
            previous = scanned
            if scanned % 2 == 0 { sum &+= scanned }
        }
        return sum
    }

    public static func zipTwoSubjects(_ count: Int) -> Int {
        var sum = 0
        var left: [Int] = []
        var leftHead = 0
        let sink = Stage<(Int, Int), Void> { sum &+= $0.0 &+ $0.1 }
        for value in 0..<count {
            left.append(value)
            let first = left[leftHead]
            leftHead += 1
            sink.body((first, value))
        }
        return sum
    }

    public static func combineLatestTwoSubjects(_ count: Int) -> Int {
        var sum = 0
        var latest: (Int?, Int?) = (nil, nil)
        let sink = Stage<(Int, Int), Void> { sum &+= $0.0 &+ $0.1 }
        for value in 0..<count {
            latest.0 = value
            if let b = latest.1 { sink.body((value, b)) }
            latest.1 = value
            if let a = latest.0 { sink.body((a, value)) }
        }
        return sum
    }

    public static func mergeTwoSubjects(_ count: Int) -> Int {
        var sum = 0
        let sink = Stage<Int, Void> { sum &+= $0 }
        for value in 0..<count / 2 {
            sink.body(value)
            sink.body(value)
        }
        return sum
    }

    /// A property whose setter calls one observer with the new value before storing it.
    public static func publishedSet(_ count: Int) -> Int {
        var sum = 0
        let model = ObservedModel(observer: Stage<Int, Void> { sum &+= $0 })
        for value in 0..<count { model.value = value }
        return sum
    }

    /// Values handed one by one to a serial queue, summed there.
    public static func receiveOnSerialQueue(_ count: Int) -> Int {
        let queue = DispatchQueue(label: "benchmark.baseline.receive-on")
        let box = SumBox()
        for value in 0..<count {
            queue.async { box.add(value) }
        }
        queue.sync {}
        return box.sum
    }

    /// What a schedule and a cancel cost at best: an action appended to a list and taken off it.
    public static func scheduleAndCancel(_ count: Int) -> Int {
        var actions: [() -> Void] = []
        var sum = 0
        for index in 0..<count {
            actions.append { sum &+= index }
            actions.removeLast()
            sum &+= index
        }
        return sum
    }

    /// A hand-written debounce over a hand-written virtual clock: the latest value of each
    /// burst is delivered when the clock passes its deadline.
    public static func debounceVirtualTime(_ count: Int) -> Int {
        var sum = 0
        let sink = Stage<Int, Void> { sum &+= $0 }
        var now = 0
        var pending: (value: Int, deadline: Int)?
        for value in 0..<count {
            pending = (value, now + 10)
            if value % 10 == 9 {
                now += 20
                if let due = pending, due.deadline <= now {
                    sink.body(due.value)
                    pending = nil
                }
            }
        }
        return sum
    }
}

/// A class whose property tells an observer before each change, like `@Published`.
final class ObservedModel {
    let observer: Baseline.Stage<Int, Void>
    var value = 0 {
        willSet { observer.body(newValue) }
    }

    init(observer: Baseline.Stage<Int, Void>) {
        self.observer = observer
    }
}

/// A sum shared with work on another queue (the queue serialises access), added to through
/// a closure the optimiser does not look into, like the other baselines' stages.
final class SumBox: @unchecked Sendable {
    var sum = 0
    private(set) var add: (Int) -> Void = { _ in }

    init() {
        add = opaque { [unowned self] value in self.sum &+= value }
    }
}

// MARK: Swift concurrency bridges (issue 18)

/// The numbers `0..<count` as an asynchronous sequence that never suspends: the cost of an
/// `AsyncSequence` itself, without any buffering, for the bridge scenarios.
public struct CountingAsyncSequence: AsyncSequence, Sendable {
    public typealias Element = Int
    public typealias Failure = Never
    let count: Int

    public init(_ count: Int) {
        self.count = count
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var next = 0
        let end: Int

        public mutating func next() async -> Int? {
            step()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
            step()
        }

        mutating func step() -> Int? {
            guard next < end else { return nil }
            defer { next += 1 }
            return next
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(end: count) }
}

/// A trivial `async` transform the optimiser cannot see through.
@inline(never)
public func asyncBump(_ value: Int) async -> Int {
    opaque(value) &+ 1
}

/// Runs `body` in a task and waits for its result: the benchmark bodies are synchronous.
public func waitForTask(_ body: @escaping @Sendable () async -> Int) -> Int {
    let box = SumBox()
    let done = DispatchSemaphore(value: 0)
    Task {
        box.sum = await body()
        done.signal()
    }
    done.wait()
    return box.sum
}

extension Baseline {
    /// `asyncMap`'s work by hand: a `for` loop awaiting the transform per value, in one task.
    public static func asyncLoop(_ count: Int) -> Int {
        waitForTask {
            var sum = 0
            for value in 0..<count { sum &+= await asyncBump(value) }
            return sum
        }
    }

    /// An `AsyncSequence` consumed by hand: `for await` in one task.
    public static func forAwait(_ count: Int) -> Int {
        waitForTask {
            var sum = 0
            for await value in CountingAsyncSequence(count) { sum &+= value }
            return sum
        }
    }
}
