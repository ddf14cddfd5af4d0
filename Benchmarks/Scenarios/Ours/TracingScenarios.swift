// SPDX-License-Identifier: Apache-2.0
// This library's tools that OpenCombine has no counterpart of (CombineTrace, CombineLogging's
// `log`): compiled into OursScenarios only, each beside the untraced scenario it adds to.
import Combine
import CombineExtras
import CombineLogging
import Dispatch
import Logging
import Synchronization

extension Scenarios {
    /// `subjectToOneSink` with a `CombineTrace` recording: each send is one value event. The ring
    /// keeps the last 4,096 events, as a server that leaves the trace on keeps it; writing the
    /// JSON at the end is part of the run (4,096 events).
    public static func tracedSubjectToOneSink(_ count: Int) -> Int {
        let trace = CombineTrace.start(capacity: 4_096)
        let sum = subjectToOneSink(count)
        _ = trace.stop()
        return sum
    }

    /// A subject, `map` and a sink: two subscribers per value, the pipeline a trace sees.
    public static func subjectMapSink(_ count: Int) -> Int {
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &* 2 }.sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// `subjectMapSink` subscribed while a trace ran, sent to after it stopped: what a pipeline
    /// that was traced costs once the trace is gone (its subscribers keep the observing stand-ins).
    public static func subjectMapSinkAfterTrace(_ count: Int) -> Int {
        let trace = CombineTrace.start(capacity: 4_096)
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.map { $0 &* 2 }.sink { sum &+= $0 }
        _ = trace.stop()
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// Four threads, started from one barrier, each sending `count / 4` values into a
    /// `subject.map.sink` pipeline of its own; with `traced`, a trace records all four.
    public static func fourPipelines(_ count: Int, traced: Bool) -> Int {
        let trace = traced ? CombineTrace.start(capacity: 4_096) : nil
        let totals = (0..<4).map { _ in SinkTotal() }
        nonisolated(unsafe) let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
        let cancellables = (0..<4).map { index in subjects[index].map { $0 &* 2 }.sink { totals[index].sum &+= $0 } }
        runOverlapping(threads: 4) { thread in
            for value in 0..<count / 4 { subjects[thread].send(value) }
        }
        for cancellable in cancellables { cancellable.cancel() }
        _ = trace?.stop()
        return totals.reduce(0) { $0 &+ $1.sum }
    }

    /// `subjectToOneSink` through `log(_:to:level:)` at `.debug` to a logger whose level is
    /// `.info`: every message is filtered out.
    public static func filteredLogSubjectToOneSink(_ count: Int) -> Int {
        var logger = Logger(label: "benchmark", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .info
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let cancellable = subject.log("values", to: logger, level: .debug).sink { sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
        return sum
    }

    /// `CombineTrace.stop()` alone over a full ring of `count` value events: the time of the
    /// stop, in nanoseconds, is what the scenario returns (the recording before it is not timed).
    public static func traceStopNanoseconds(_ count: Int) -> Int {
        let trace = CombineTrace.start(capacity: count)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { _ in }
        for value in 0..<count { subject.send(value) }
        let start = DispatchTime.now().uptimeNanoseconds
        let json = trace.stop()
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        cancellable.cancel()
        return json.isEmpty ? 0 : Int(elapsed)
    }
}

/// A publisher that notes how deep the stack is when it is subscribed to.
private struct StackProbe: Publisher {
    typealias Output = Int
    typealias Failure = Never
    let depth: StackDepth
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        depth.innermost = stackAddress()
        subscriber.receive(subscription: Subscriptions.empty)
    }
}

private final class StackDepth: @unchecked Sendable {
    var innermost: UInt = 0
}

@inline(never)
private func stackAddress() -> UInt {
    var marker = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

extension Scenarios {
    /// The stack one level of an erased `map` chain takes while it is subscribed (bytes), with
    /// or without a trace running: a chain of `levels` levels is subscribed and the depth of the
    /// stack at its innermost publisher is divided by `levels`.
    public static func erasedChainStackPerLevel(levels: Int, traced: Bool) -> Int {
        let depth = StackDepth()
        var chain = StackProbe(depth: depth).eraseToAnyPublisher()
        for _ in 0..<levels { chain = chain.map { $0 &+ 1 }.eraseToAnyPublisher() }
        let trace = traced ? CombineTrace.start(capacity: 1_024) : nil
        let outermost = stackAddress()
        let cancellable = chain.sink { _ in }
        _ = trace?.stop()
        cancellable.cancel()
        return Int(outermost &- depth.innermost) / levels
    }
}
