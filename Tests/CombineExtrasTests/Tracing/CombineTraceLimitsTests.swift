// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation
import TestSupport
import Testing

@testable import CombineExtras

/// In the child process: reports a check that failed (the parent fails on any).
private func check(_ condition: Bool, _ message: String) {
    if !condition { FileHandle.standardError.write(Data("\nFAILED \(message)\n".utf8)) }
}

/// The checks a child process reported as failed.
private func failures(_ result: ExitTest.Result?) -> [String] {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
        .filter { $0.hasPrefix("FAILED ") }.map { String($0.dropFirst(7)) }
}

/// The events of a trace's JSON, or `nil` when it does not parse.
private func traceEvents(_ data: Data) -> [[String: Any]]? {
    (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["traceEvents"] as? [[String: Any]]
}

/// The process's resident memory in bytes (Linux; `nil` elsewhere, and under a sanitizer, whose
/// runtime keeps freed memory aside and maps shadow memory, so that resident memory grows with
/// what was allocated, not with what is kept).
private func residentBytes() -> Int? {
    let sanitized = ["__tsan_acquire", "__asan_init"].contains { (symbol: String) in
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
    }
    if sanitized { return nil }
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// A subscriber that asks for `.max(Int.max)` twice on subscribing and returns it for every value.
private final class GreedySubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    var received: [Int] = []
    func receive(subscription: Subscription) {
        subscription.request(.max(Int.max))
        subscription.request(.max(Int.max))
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        received.append(input)
        return .max(Int.max)
    }
    func receive(completion: Subscribers.Completion<Never>) {}
}

/// A struct with no description of its own holding a large array: the standard library's
/// description of it would write every element.
private struct Page {
    var number: Int
    var items: [Int]
}

/// An indirect enum as deep as a program makes it.
private indirect enum Chain {
    case end
    case link(Chain)

    static func deep(_ levels: Int) -> Chain {
        var chain = Chain.end
        for _ in 0..<levels { chain = .link(chain) }
        return chain
    }
}

/// Runs `body` on a thread of its own with a large stack (a 20,000-deep enum's release recurses
/// once per level in any program), and returns what it returns.
private func onLargeStack<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
    let done = DispatchSemaphore(value: 0)
    let result = LockedValue<Result?>(nil)
    let thread = Thread {
        result.withLock { $0 = body() }
        done.signal()
    }
    thread.stackSize = 256 << 20
    thread.start()
    done.wait()
    return result.withLock { $0! }
}

/// What a long-running server needs of a trace left on: demand that saturates, state that goes
/// with the subscriptions, descriptions made in bounded time, and no lock all pipelines share.
/// Each scenario runs in a child process (the trace observes every subscription made in it).
@Suite("CombineTrace left on: saturating demand, bounded state, bounded descriptions")
struct CombineTraceLimitsTests {
    @Test("demand that adds up past Int.max saturates to unlimited, as Subscribers.Demand does")
    func demandSaturates() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subscriber = GreedySubscriber()
                [1, 2, 3].publisher.map { $0 }.subscribe(subscriber)
                let events = traceEvents(trace.stop()) ?? []
                check(subscriber.received == [1, 2, 3], "received \(subscriber.received)")
                let counters = events.filter { $0["name"] as? String == "demand" }
                    .compactMap { $0["args"] as? [String: Any] }
                check(counters.contains { $0["unlimited"] as? Int == 1 }, "no counter went unlimited: \(counters)")
                check(counters.allSatisfy { ($0["demand"] as? Int ?? 0) >= 0 }, "a negative counter: \(counters)")
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("100,000 subscribe, send, cancel cycles: the trace keeps no state for ended subscriptions")
    func stateGoesWithTheSubscriptions() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start(capacity: 1_000)
                let subject = PassthroughSubject<Int, Never>()
                func cycle(_ value: Int) {
                    let cancellable = subject.map { $0 + 1 }.sink { _ in }
                    subject.send(value)
                    cancellable.cancel()
                }
                for value in 0..<20_000 { cycle(value) }
                let early = residentBytes()
                for value in 20_000..<100_000 { cycle(value) }
                let late = residentBytes()
                check(trace.liveSubscriptions == 0, "state kept for \(trace.liveSubscriptions) ended subscriptions")
                check(trace.eventCount == 1_000, "kept \(trace.eventCount)")
                if let early, let late {
                    // Before, each cycle left about 254 bytes (its tracks and map entries): 20 MB here.
                    check(late - early < 4 << 20, "memory grew by \(late - early) bytes over 80,000 cycles")
                }
                let open = PassthroughSubject<Int, Never>().sink { _ in }
                check(trace.liveSubscriptions > 0, "a live subscription has no state")
                _ = trace.stop()
                check(trace.liveSubscriptions == 0, "state kept after stop: \(trace.liveSubscriptions)")
                withExtendedLifetime(open) {}
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("a 200,000-element array is described by its first elements and its count")
    func largeValuesAreDescribedByTheirStart() {
        let large = Array(0..<200_000)
        #expect(TraceDescription.describe(large) == "[0, 1, 2, 3, … 200000 elements]")
        #expect(TraceDescription.describe([1, 2]) == "[1, 2]")
        #expect(
            TraceDescription.describe(Page(number: 7, items: large))
                == "Page(number: 7, items: [0, 1, 2, 3, … 200000 elements])")
        let optional = Optional(Page(number: 1, items: []))
        #expect(TraceDescription.describe(optional) == "Optional(Page(number: 1, items: []))")
        #expect(TraceDescription.describe(String(repeating: "x", count: 1_000)).count == TraceDescription.limit)
        #expect(TraceDescription.describe(Set([5])) == "[5]")
        #expect(TraceDescription.describe((1, "a")) == "(1, a)")
        #expect(TraceDescription.describe(42) == "42")
        #expect(TraceDescription.describe(Data(count: 3)) == "3 bytes")
        enum Load {
            case idle
            case loaded([Int])
        }
        #expect(TraceDescription.describe(Load.idle) == "idle")
        #expect(TraceDescription.describe(Load.loaded(large)) == "loaded([0, 1, 2, 3, … 200000 elements])")
    }

    @Test("a range whose count overflows and an enum nested 20,000 deep are described in bounds")
    func hostileValuesAreDescribedInBounds() {
        // Before: the count of Int.min...Int.max trapped (integer overflow), and the enum's
        // payload was described to the bottom, one stack frame per level.
        #expect(TraceDescription.describe(Int.min...Int.max) == "-9223372036854775808...9223372036854775807")
        #expect(TraceDescription.describe(Int.min..<Int.max) == "-9223372036854775808..<9223372036854775807")
        #expect(TraceDescription.describe(AnyCollection(0..<1_000)) == "[0, 1, 2, 3, …]")
        let texts = onLargeStack {
            let deep = Chain.deep(20_000)
            return [TraceDescription.describe(deep), TraceDescription.describe(Optional(deep))]
        }
        #expect(texts == ["link(link(link(link(…))))", "Optional(link(link(link(link(…)))))"])
    }

    @Test("traced pipelines of those values run as they run untraced")
    func hostileValuesPassATracedPipeline() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                onLargeStack {
                    let trace = CombineTrace.start()
                    var bounds: [Int] = []
                    let closed = Just(Int.min...Int.max).map { $0 }.sink { bounds.append($0.upperBound) }
                    let open = Just(Int.min..<Int.max).map { $0 }.sink { bounds.append($0.lowerBound) }
                    var depth = 0
                    let nested = Just(Chain.deep(20_000)).map { $0 }.sink { chain in
                        if case .link = chain { depth = 1 }
                    }
                    let optional = Just(Optional(Chain.deep(20_000))).map { $0 }.sink { _ in depth += 1 }
                    let values = (traceEvents(trace.stop()) ?? []).filter { $0["name"] as? String == "value" }
                    check(bounds == [Int.max, Int.min], "received \(bounds)")
                    check(depth == 2, "the enums were not delivered: \(depth)")
                    // `Just(…).map` is a `Just` (Apple's specialised operator): one subscriber per pipeline.
                    check(values.count == 4, "\(values.count) value events, not 4")
                    withExtendedLifetime((closed, open, nested, optional)) {}
                }
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("a traced pipeline of large arrays records each as its start and count")
    func largeValuesInATrace() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subject = PassthroughSubject<[Int], Never>()
                let cancellable = subject.sink { _ in }
                for _ in 0..<50 { subject.send(Array(0..<200_000)) }
                let values = (traceEvents(trace.stop()) ?? []).filter { $0["name"] as? String == "value" }
                    .compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
                check(values.count == 50, "\(values.count) value events")
                check(Set(values) == ["[0, 1, 2, 3, … 200000 elements]"], "described as \(Set(values))")
                withExtendedLifetime(cancellable) {}
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("stop() writes every kept event: 100,000 of them, in order, as JSON that parses")
    func stopWritesALargeTrace() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start(capacity: 100_000)
                let subject = PassthroughSubject<Int, Never>()
                let cancellable = subject.sink { _ in }
                for value in 0..<200_000 { subject.send(value) }
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("combine-trace-\(UUID()).json")
                do {
                    try trace.stop(writingTo: url)
                    let fromFile = try Data(contentsOf: url)
                    try? FileManager.default.removeItem(at: url)
                    check(fromFile == trace.stop(), "the file and stop() differ")
                    let values = (traceEvents(fromFile) ?? []).filter { $0["name"] as? String == "value" }
                        .compactMap { ($0["args"] as? [String: Any])?["value"] as? String }.compactMap { Int($0) }
                    check(values == Array(100_000..<200_000), "kept \(values.count) values, not the newest in order")
                } catch {
                    check(false, "writing the trace: \(error)")
                }
                withExtendedLifetime(cancellable) {}
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("texts with quotes, backslashes, control characters and emoji stay valid JSON")
    func escaping() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let texts = ["say \"hi\"", "back\\slash", "line\nbreak\ttab\u{1}", "🙂 ünïcode"]
                _ = texts.publisher.sink { _ in }
                let values = (traceEvents(trace.stop()) ?? []).filter { $0["name"] as? String == "value" }
                    .compactMap { ($0["args"] as? [String: Any])?["value"] as? String }
                check(values == texts, "read back \(values)")
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("traces started and stopped while four threads subscribe, send and cancel")
    func startAndStopRacingSubscriptions() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let subject = PassthroughSubject<Int, Never>()
                let delivered = LockedValue(0)
                let stop = LockedValue(false)
                let traces = LockedValue(0)
                let tracer = Thread {
                    while !stop.current {
                        let trace = CombineTrace.start(capacity: 256)
                        usleep(200)
                        if traceEvents(trace.stop()) == nil { check(false, "a trace did not parse") }
                        traces.withLock { $0 += 1 }
                    }
                }
                tracer.start()
                runOverlapping(threads: 4) { thread in
                    for round in 0..<2_000 {
                        let cancellable = subject.map { $0 * 2 }.sink { _ in delivered.withLock { $0 += 1 } }
                        subject.send(thread * 10_000 + round)
                        cancellable.cancel()
                    }
                }
                stop.withLock { $0 = true }
                while traces.current == 0 { usleep(100) }
                check(delivered.current >= 2_000, "delivered only \(delivered.current)")
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }

    @Test("four threads, four traced pipelines: every value recorded, per-track demand right")
    func independentPipelinesOnFourThreads() async throws {
        let result = await runningExitTest {
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let trace = CombineTrace.start()
                let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
                let cancellables = subjects.map { $0.map { $0 + 1 }.sink { _ in } }
                runOverlapping(threads: 4) { thread in
                    for value in 0..<2_500 { subjects[thread].send(value) }
                }
                let events = traceEvents(trace.stop()) ?? []
                let values = events.filter { $0["name"] as? String == "value" }
                check(values.count == 20_000, "\(values.count) value events, not 20,000")
                let tracks = Set(values.compactMap { $0["tid"] as? Int })
                check(tracks.count == 8, "values on \(tracks.count) tracks")
                withExtendedLifetime(cancellables) {}
            }
        }
        #expect(failures(result).isEmpty, "\(failures(result))")
    }
}
