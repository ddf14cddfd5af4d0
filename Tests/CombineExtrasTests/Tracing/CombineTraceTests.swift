// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import Foundation
import TestSupport
import Testing

/// A trace parsed back from its JSON, checked against the trace-event format's rules as it is
/// read (`issues` lists every rule broken).
private struct ParsedTrace {
    var events: [[String: Any]] = []
    var issues: [String] = []

    init(_ data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = object["traceEvents"] as? [[String: Any]]
        else {
            issues.append("not a JSON object with a traceEvents array")
            return
        }
        self.events = events
        var open: [String: Int] = [:]
        var lastTime: [String: Double] = [:]
        for (index, event) in events.enumerated() {
            guard let name = event["name"] as? String, let phase = event["ph"] as? String,
                event["pid"] is Int, event["tid"] is Int
            else {
                issues.append("event \(index): name, ph, pid and tid are required")
                continue
            }
            let track = "\(event["pid"]!)/\(event["tid"]!)"
            if phase == "M" {
                if !["process_name", "thread_name", "thread_sort_index"].contains(name) {
                    issues.append("event \(index): unknown metadata \(name)")
                }
                if (event["args"] as? [String: Any])?.isEmpty != false {
                    issues.append("event \(index): metadata without args")
                }
                continue
            }
            guard let time = event["ts"] as? Double, time >= 0 else {
                issues.append("event \(index): ts must be a number of microseconds")
                continue
            }
            switch phase {
            case "B":
                open[track, default: 0] += 1
            case "E":
                open[track, default: 0] -= 1
                if open[track, default: 0] < 0 { issues.append("event \(index): E without its B on \(track)") }
            case "i":
                if !["t", "p", "g"].contains(event["s"] as? String ?? "t") {
                    issues.append("event \(index): bad scope")
                }
            case "C":
                let args = event["args"] as? [String: Any] ?? [:]
                if args.isEmpty || !args.values.allSatisfy({ $0 is Int || $0 is Double }) {
                    issues.append("event \(index): a counter's args must be numbers")
                }
            default:
                issues.append("event \(index): phase \(phase) is not one this trace writes")
            }
            if phase == "B" || phase == "E" {
                if time < lastTime[track, default: 0] {
                    issues.append("event \(index): slices out of order on \(track)")
                }
                lastTime[track] = time
            }
        }
        for (track, depth) in open where depth != 0 { issues.append("\(track): \(depth) slice(s) never ended") }
    }

    func named(_ name: String, phase: String) -> [[String: Any]] {
        events.filter { $0["name"] as? String == name && $0["ph"] as? String == phase }
    }

    /// The name each track (`pid/tid`) was given.
    var trackNames: [String: String] {
        var names: [String: String] = [:]
        for event in named("thread_name", phase: "M") {
            names["\(event["pid"]!)/\(event["tid"]!)"] = (event["args"] as? [String: Any])?["name"] as? String
        }
        return names
    }
}

/// What a child process reports: the trace it wrote (one line, after `TRACE `) and every check
/// that failed there (lines after `FAILED `).
private struct ChildReport {
    var trace = ParsedTrace(Data())
    var failures: [String] = []

    init(_ result: ExitTest.Result?) {
        let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("TRACE ") { trace = ParsedTrace(Data(line.dropFirst(6).utf8)) }
            if line.hasPrefix("FAILED ") { failures.append(String(line.dropFirst(7))) }
        }
    }
}

/// In the child process: writes the trace for the parent.
private func report(_ trace: Data) {
    FileHandle.standardError.write(Data("\nTRACE ".utf8) + trace + Data("\n".utf8))
}

/// In the child process: reports a check that failed.
private func check(_ condition: Bool, _ message: String) {
    if !condition { FileHandle.standardError.write(Data("\nFAILED \(message)\n".utf8)) }
}

/// The trace observes every subscription made in the process (through `_Introspection`), and
/// observing puts a stand-in in front of each subscriber: each scenario runs in a child
/// process (an exit test), so that it neither sees nor changes the tests running beside it.
@Suite("CombineTrace: a timeline of live pipelines as trace-event JSON")
struct CombineTraceTests {
    @Test("subject.map.sink: one pipeline, a track per subscriber, nested, every event counted")
    func onePipeline() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subject = TracedSource<Int>()
                var received: [Int] = []
                let cancellable = subject.map { $0 * 10 }.sink { received.append($0) }
                subject.send(1)
                subject.send(2)
                subject.send(completion: .finished)
                report(trace.stop())
                check(!trace.isRunning, "still running after stop")
                check(received == [10, 20], "received \(received)")
                withExtendedLifetime(cancellable) {}
            }
        }
        let child = ChildReport(result)
        #expect(child.failures.isEmpty, "\(child.failures)")
        let parsed = child.trace
        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        let pipelines = Set(parsed.named("process_name", phase: "M").map { $0["pid"] as? Int })
        #expect(pipelines.count == 1, "the sink and the subscribers it attached upstream are one pipeline")
        let names = parsed.trackNames
        #expect(names.count == 3, "the sink, the map's subscriber, and the subject's under the marker: \(names)")
        #expect(names.values.contains { $0.hasPrefix("Sink ← Map") })
        #expect(names.values.contains { $0.hasPrefix("Map ← TracedSource") && $0.contains("upstream of track") })
        #expect(names.values.contains { $0.contains("← PassthroughSubject") && $0.contains("upstream of track") })
        #expect(parsed.named("value", phase: "i").count == 4, "two values through the two subscribers that see them")
        #expect(parsed.named("finished", phase: "i").count == 2)
        #expect(parsed.named("subscribe", phase: "B").count == 3)
        #expect(parsed.named("subscription", phase: "i").count == 2)
        let values = parsed.named("value", phase: "i").compactMap {
            ($0["args"] as? [String: Any])?["value"] as? String
        }
        #expect(values.sorted() == ["1", "10", "2", "20"])
    }

    @Test("demand is a counter per track: requests raise it, values lower it; a cancel is an instant")
    func demandAndCancel() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subject = TracedSource<Int>()
                let subscriber = TestSubscriberOfTrace()
                subject.subscribe(subscriber)
                subscriber.subscription?.request(.max(3))
                subject.send(1)
                subscriber.subscription?.cancel()
                report(trace.stop())
            }
        }
        let parsed = ChildReport(result).trace
        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        let counters = parsed.named("demand", phase: "C").compactMap {
            ($0["args"] as? [String: Any])?["demand"] as? Int
        }
        #expect(counters == [3, 2])
        #expect(parsed.named("cancel", phase: "i").count == 1)
        let requests = parsed.named("request", phase: "i").compactMap {
            ($0["args"] as? [String: Any])?["demand"] as? String
        }
        #expect(requests == ["max(3)"])
    }

    @Test("four threads sending into a traced pipeline: every value is an event, the JSON stays well formed")
    func severalThreads() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subject = TracedSource<Int>()
                let count = LockedValue(0)
                let cancellable = subject.filter { $0 >= 0 }.sink { _ in count.withLock { $0 += 1 } }
                runOverlapping(threads: 4) { thread in
                    for value in 0..<250 { subject.send(thread * 1_000 + value) }
                }
                report(trace.stop())
                check(count.current == 1_000, "delivered \(count.current)")
                withExtendedLifetime(cancellable) {}
            }
        }
        let child = ChildReport(result)
        #expect(child.failures.isEmpty, "\(child.failures)")
        let parsed = child.trace
        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        #expect(
            parsed.named("value", phase: "i").count == 2_000,
            "each value through the filter's and the sink's subscriber")
        let threads = parsed.events.filter { $0["ph"] as? String != "M" && $0["ph"] as? String != "C" }
            .map { ($0["args"] as? [String: Any])?["thread"] as? Int ?? 0 }
        #expect(!threads.isEmpty && !threads.contains(0), "every event names the thread it happened on")
    }

    @Test("a full ring keeps the newest events, counts the dropped ones, and still writes balanced slices")
    func boundedRing() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start(capacity: 16)
                let subject = TracedSource<Int>()
                let cancellable = subject.sink { _ in }
                for value in 0..<100 { subject.send(value) }
                check(trace.eventCount == 16, "kept \(trace.eventCount)")
                check(trace.droppedEvents > 0, "dropped none")
                report(trace.stop())
                withExtendedLifetime(cancellable) {}
            }
        }
        let child = ChildReport(result)
        #expect(child.failures.isEmpty, "\(child.failures)")
        let parsed = child.trace
        #expect(parsed.issues.isEmpty, "\(parsed.issues)")
        let values = parsed.named("value", phase: "i").compactMap {
            ($0["args"] as? [String: Any])?["value"] as? String
        }
        .compactMap { Int($0) }
        #expect(values.count == 16, "the ring held only values at the end")
        #expect(values == Array(84..<100), "the newest kept, oldest first")
        #expect(parsed.named("subscribe", phase: "B").isEmpty, "a slice whose beginning was dropped is left out")
    }

    @Test("subscriptions made after stop are not traced, and stop writes a file that parses")
    func stopAndFile() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                _ = Just(1).sink { _ in }
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("combine-trace-\(UUID()).json")
                do {
                    try trace.stop(writingTo: url)
                    report(try Data(contentsOf: url))
                    try? FileManager.default.removeItem(at: url)
                } catch {
                    check(false, "writing the trace: \(error)")
                }
                _ = Just(2).sink { _ in }
                let again = String(decoding: trace.stop(), as: UTF8.self)
                check(!again.contains("\"value\":\"2\""), "a subscription after the stop was traced")
            }
        }
        let child = ChildReport(result)
        #expect(child.failures.isEmpty, "\(child.failures)")
        #expect(child.trace.issues.isEmpty, "\(child.trace.issues)")
        #expect(child.trace.named("value", phase: "i").count == 1)
    }
}

/// A subject under a name of its own, so that a test finds its pipeline in the trace by it.
private struct TracedSource<Output>: Publisher {
    typealias Failure = Never
    let subject = PassthroughSubject<Output, Never>()
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.subscribe(subscriber)
    }
    func send(_ value: Output) { subject.send(value) }
    func send(completion: Subscribers.Completion<Never>) { subject.send(completion: completion) }
}

/// A subscriber that asks for nothing by itself and keeps its subscription.
private final class TestSubscriberOfTrace: Subscriber {
    typealias Input = Int
    typealias Failure = Never
    var subscription: Subscription?
    func receive(subscription: Subscription) { self.subscription = subscription }
    func receive(_ input: Int) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}
