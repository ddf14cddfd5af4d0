// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Foundation

/// Records what running pipelines do — every subscription, request, value, completion and
/// cancel, with a monotonic timestamp and the thread — and writes it as Chrome trace-event JSON,
/// which Perfetto (ui.perfetto.dev) and `chrome://tracing` open as a timeline.
///
/// Each subscriber is a track, named after the subscriber and the publisher it subscribed to,
/// grouped under its pipeline: the subscribers attached during one outermost `subscribe(_:)`
/// call (a `sink` at the end of a chain, and every operator's subscriber the chain attaches
/// upstream) form one pipeline, the outermost first. Subscribing is a slice on the track; the
/// subscription, each value, the completion and a cancel are instants (a value's description in
/// its arguments); each track's outstanding demand is a counter.
///
/// ```swift
/// let trace = CombineTrace.start()
/// let cancellable = subject.map { $0 * 2 }.sink { print($0) }
/// subject.send(1)
/// try trace.stop(writingTo: URL(fileURLWithPath: "pipeline.json"))
/// // open pipeline.json in https://ui.perfetto.dev or chrome://tracing
/// ```
///
/// The trace keeps the last `capacity` events (a ring: a long-running server can leave it on);
/// older ones are dropped and counted in ``droppedEvents``. It observes through Combine's
/// `_Introspection` hooks, so only subscriptions made while it runs are traced. While no trace
/// runs, the hooks cost one load per `subscribe(_:)` and nothing per value.
public final class CombineTrace: @unchecked Sendable {
    private let recorder: TraceRecorder

    private init(capacity: Int) {
        recorder = TraceRecorder(capacity: capacity)
    }

    /// Starts a trace of the subscriptions made from now on.
    ///
    /// - Parameter capacity: How many events the trace keeps; once full, each new event drops
    ///   the oldest. At least 16.
    /// - Returns: The running trace; stop it with ``stop()`` or ``stop(writingTo:)``.
    public static func start(capacity: Int = 1_000_000) -> CombineTrace {
        let trace = CombineTrace(capacity: max(16, capacity))
        trace.recorder.enable()
        return trace
    }

    /// Whether the trace is still recording.
    public var isRunning: Bool { recorder.isEnabled }

    /// The events recorded and kept so far.
    public var eventCount: Int { recorder.counts.kept }

    /// The events dropped because the trace was full.
    public var droppedEvents: Int { recorder.counts.dropped }

    /// Stops recording (stopping twice does nothing) and returns the trace as Chrome
    /// trace-event JSON.
    ///
    /// - Returns: A JSON object whose `traceEvents` array holds the recorded events.
    public func stop() -> Data {
        recorder.disable()
        return recorder.json()
    }

    /// Stops recording and writes the trace, as Chrome trace-event JSON, to `url`.
    ///
    /// - Parameter url: The file to write; it is replaced if it exists.
    /// - Throws: The error of writing the file.
    public func stop(writingTo url: URL) throws {
        try stop().write(to: url, options: .atomic)
    }
}

/// The hooks' receiver: turns each event into a record of the ring.
private final class TraceRecorder: _Introspection, @unchecked Sendable {
    /// One thing that happened, as recorded (turned into JSON only when the trace is written).
    struct Event {
        enum Kind {
            case subscribeBegin, subscribeEnd, subscription, value, finished, failure, request, cancel
        }
        var kind: Kind
        /// Nanoseconds since the trace started.
        var time: UInt64
        var thread: UInt
        var track: Int
        /// The value's or the failure's description; the request's demand.
        var detail: String?
        /// The track's outstanding demand after this event (`nil`: unlimited, or unchanged).
        var demand: Int?
    }

    /// A subscriber the trace has seen subscribe.
    struct Track {
        var pipeline: Int
        var parent: Int?
        var name: String
        /// Outstanding demand; `nil` once unlimited.
        var demand: Int? = 0
    }

    private let lock = Lock()
    private let start = DispatchTime.now().uptimeNanoseconds
    private let capacity: Int
    private var ring: [Event] = []
    /// Where the next event goes once the ring is full.
    private var next = 0
    private var dropped = 0
    private var tracks: [Track] = []
    /// The track of each subscriber and subscription identity seen (an identity may be reused
    /// once its object is gone: the latest subscription wins).
    private var trackOfSubscriber: [CombineIdentifier: Int] = [:]
    private var trackOfSubscription: [CombineIdentifier: Int] = [:]
    /// The `subscribe(_:)` calls under way, per thread: the innermost last.
    private var subscribing: [UInt: [Int]] = [:]

    init(capacity: Int) {
        self.capacity = capacity
        ring.reserveCapacity(min(capacity, 4_096))
    }

    var counts: (kept: Int, dropped: Int) { lock.withLock { (ring.count, dropped) } }

    // MARK: Recording (under the lock)

    private func record(_ kind: Event.Kind, track: Int, detail: String? = nil, demand: Int? = nil) {
        let event = Event(
            kind: kind, time: DispatchTime.now().uptimeNanoseconds &- start, thread: currentThreadID(), track: track,
            detail: detail, demand: demand)
        if ring.count < capacity {
            ring.append(event)
        } else {
            ring[next] = event
            next = (next + 1) % capacity
            dropped += 1
        }
    }

    /// A publisher's type without module and generic arguments (`Map`, `PassthroughSubject`).
    private static func typeName(of value: Any) -> String {
        let full = String(describing: type(of: value))
        let base = full.split(separator: "<", maxSplits: 1).first.map(String.init) ?? full
        return base.split(separator: ".").last.map(String.init) ?? base
    }

    private static func describe(_ value: Any) -> String {
        let text = String(describing: value)
        // Counting UTF-8 bytes is O(1) for a native string; characters are counted only when long.
        guard text.utf8.count > 120, text.count > 120 else { return text }
        return String(text.prefix(119)) + "…"
    }

    // MARK: _Introspection

    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream) {
        let thread = currentThreadID()
        let name = "\(Self.describe(subscriber)) ← \(Self.typeName(of: publisher))"
        lock.withLock {
            let open = subscribing[thread] ?? []
            let track = tracks.count
            let parent = open.last
            tracks.append(Track(pipeline: parent.map { tracks[$0].pipeline } ?? track, parent: parent, name: name))
            trackOfSubscriber[subscriber.combineIdentifier] = track
            subscribing[thread] = open + [track]
            record(.subscribeBegin, track: track)
        }
    }

    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream) {
        let thread = currentThreadID()
        lock.withLock {
            guard var open = subscribing[thread], let track = open.popLast() else { return }
            subscribing[thread] = open.isEmpty ? nil : open
            record(.subscribeEnd, track: track)
        }
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: Subscription) {
        lock.withLock {
            guard let track = trackOfSubscriber[subscriber.combineIdentifier] else { return }
            trackOfSubscription[subscription.combineIdentifier] = track
            record(.subscription, track: track, detail: Self.describe(subscription))
        }
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
        let detail = Self.describe(input)
        lock.withLock {
            guard let track = trackOfSubscriber[subscriber.combineIdentifier] else { return }
            if let demand = tracks[track].demand, demand > 0 { tracks[track].demand = demand - 1 }
            record(.value, track: track, detail: detail, demand: tracks[track].demand)
        }
    }

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {
        guard resultingDemand > 0 else { return }
        lock.withLock {
            guard let track = trackOfSubscriber[subscriber.combineIdentifier] else { return }
            add(resultingDemand, to: track)
        }
    }

    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        lock.withLock {
            guard let track = trackOfSubscriber[subscriber.combineIdentifier] else { return }
            switch completion {
            case .finished: record(.finished, track: track)
            case .failure(let error): record(.failure, track: track, detail: Self.describe(error))
            }
        }
    }

    func willRequest(subscription: Subscription, _ demand: Subscribers.Demand) {
        lock.withLock {
            guard let track = trackOfSubscription[subscription.combineIdentifier] else { return }
            add(demand, to: track)
        }
    }

    func willCancel(subscription: Subscription) {
        lock.withLock {
            guard let track = trackOfSubscription[subscription.combineIdentifier] else { return }
            record(.cancel, track: track)
        }
    }

    /// Under the lock: a request (or demand returned for a value) of `demand` on `track`.
    private func add(_ demand: Subscribers.Demand, to track: Int) {
        if let max = demand.max, let current = tracks[track].demand {
            tracks[track].demand = current + max
        } else {
            tracks[track].demand = nil
        }
        record(
            .request, track: track, detail: demand.max.map { "max(\($0))" } ?? "unlimited", demand: tracks[track].demand
        )
    }

    // MARK: Writing

    /// The recorded events as Chrome trace-event JSON: metadata naming each pipeline (a
    /// process) and each track (a thread of it), then the events oldest first. A slice whose
    /// beginning the ring dropped is left out.
    func json() -> Data {
        let (events, tracks) = lock.withLock { (Array(ring[next...] + ring[..<next]), self.tracks) }
        var out: [[String: Any]] = []
        let used = Set(events.map(\.track))
        for pipeline in Set(used.map { tracks[$0].pipeline }).sorted() {
            out.append([
                "name": "process_name", "ph": "M", "pid": pipeline, "tid": 0,
                "args": ["name": "pipeline \(pipeline): \(tracks[pipeline].name)"],
            ])
        }
        for track in used.sorted() {
            let info = tracks[track]
            var name = info.name
            if let parent = info.parent { name += " (upstream of track \(parent))" }
            out.append(["name": "thread_name", "ph": "M", "pid": info.pipeline, "tid": track, "args": ["name": name]])
            out.append([
                "name": "thread_sort_index", "ph": "M", "pid": info.pipeline, "tid": track,
                "args": ["sort_index": track],
            ])
        }
        var open: [Int: Int] = [:]  // slices begun and not ended, per track
        for event in events {
            let info = tracks[event.track]
            var entry: [String: Any] = ["ts": Double(event.time) / 1_000, "pid": info.pipeline, "tid": event.track]
            var args: [String: Any] = ["thread": Int(truncatingIfNeeded: event.thread)]
            switch event.kind {
            case .subscribeBegin:
                open[event.track, default: 0] += 1
                entry["name"] = "subscribe"
                entry["ph"] = "B"
            case .subscribeEnd:
                guard open[event.track, default: 0] > 0 else { continue }
                open[event.track, default: 0] -= 1
                entry["name"] = "subscribe"
                entry["ph"] = "E"
            case .subscription, .value, .finished, .failure, .request, .cancel:
                entry["name"] = Self.name(of: event.kind)
                entry["ph"] = "i"
                entry["s"] = "t"
                if let detail = event.detail { args[Self.detailKey(of: event.kind)] = detail }
            }
            entry["args"] = args
            out.append(entry)
            if event.kind == .value || event.kind == .request {
                out.append([
                    "name": "demand", "ph": "C", "ts": Double(event.time) / 1_000, "pid": info.pipeline,
                    "tid": event.track, "id": event.track,
                    "args": event.demand.map { ["demand": $0] } ?? ["unlimited": 1],
                ])
            }
        }
        let trace: [String: Any] = ["traceEvents": out, "displayTimeUnit": "ns"]
        return (try? JSONSerialization.data(withJSONObject: trace, options: [.sortedKeys])) ?? Data()
    }

    private static func name(of kind: Event.Kind) -> String {
        switch kind {
        case .subscribeBegin, .subscribeEnd: "subscribe"
        case .subscription: "subscription"
        case .value: "value"
        case .finished: "finished"
        case .failure: "failure"
        case .request: "request"
        case .cancel: "cancel"
        }
    }

    private static func detailKey(of kind: Event.Kind) -> String {
        switch kind {
        case .request: "demand"
        case .failure: "error"
        case .subscription: "subscription"
        default: "value"
        }
    }
}
