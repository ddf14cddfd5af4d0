// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// One subscriber the trace has seen subscribe: its place in the timeline and its outstanding
/// demand. Events hold their track, so a track lives as long as the ring holds one of its
/// events or its subscription is live (the recorder's maps hold it until then), and no longer.
final class TraceTrack: @unchecked Sendable {
    /// The track's number in the JSON (its `tid`), never given to another track of the trace.
    let id: Int
    /// The number and name of the pipeline's first track (its `pid` and process name).
    let pipeline: Int
    let pipelineName: String
    /// The track whose `subscribe(_:)` call attached this one, if any.
    let parent: Int?
    let name: String
    let subscriber: CombineIdentifier

    private let lock = Lock()
    /// Outstanding demand; `nil` once unlimited. Guarded by `lock`.
    @exclusivity(unchecked) private var outstanding: Int? = 0
    /// The subscription this track's subscriber received, once it has. Guarded by `lock`.
    @exclusivity(unchecked) private var subscriptionIdentifier: CombineIdentifier?
    /// The track that had the same subscription before this one (an operator that hands its
    /// upstream's subscription on to its subscriber): a cancel of it ends both. Guarded by `lock`.
    @exclusivity(unchecked) private var sharedWith: TraceTrack?

    init(
        id: Int, pipeline: Int, pipelineName: String, parent: Int?, name: String, subscriber: CombineIdentifier
    ) {
        self.id = id
        self.pipeline = pipeline
        self.pipelineName = pipelineName
        self.parent = parent
        self.name = name
        self.subscriber = subscriber
    }

    var subscription: CombineIdentifier? {
        get { lock.withLock { subscriptionIdentifier } }
        set { lock.withLock { subscriptionIdentifier = newValue } }
    }

    /// Records that `track` had this track's subscription before it.
    func shares(with track: TraceTrack?) {
        lock.withLock { sharedWith = track }
    }

    /// Takes the track that had this track's subscription before it.
    func takeShared() -> TraceTrack? {
        lock.withLock { sharedWith.take() }
    }

    /// A value arrived: one less outstanding (never below zero). Returns the outstanding demand.
    func takeOne() -> Int? {
        lock.withLock {
            if let demand = outstanding, demand > 0 { outstanding = demand - 1 }
            return outstanding
        }
    }

    /// A request (or demand returned for a value): adds `demand`, saturating as
    /// `Subscribers.Demand` does. Returns the outstanding demand.
    func add(_ demand: Subscribers.Demand) -> Int? {
        lock.withLock {
            if let added = demand.max, let current = outstanding {
                let (sum, overflow) = current.addingReportingOverflow(added)
                outstanding = overflow ? nil : sum
            } else {
                outstanding = nil
            }
            return outstanding
        }
    }
}

/// What an event says besides its kind, kept as cheaply as it can be: an integer value as the
/// integer, a request as its demand, turned into text only when the trace is written.
enum TraceDetail {
    case none
    case text(String)
    case integer(Int)
    /// A request's demand: `max(n)`, or `unlimited` for `nil`.
    case request(Int?)
}

/// One thing that happened, as recorded (turned into JSON only when the trace is written).
struct TraceEvent {
    enum Kind: UInt8 {
        case subscribeBegin, subscribeEnd, subscription, value, finished, failure, request, cancel
    }
    var kind: Kind
    /// Nanoseconds since the trace started.
    var time: UInt64
    var thread: UInt
    var track: TraceTrack
    /// The value's, the subscription's or the failure's description; the request's demand.
    var detail: TraceDetail
    /// The track's outstanding demand after this event (`nil`: unlimited); read for values and
    /// requests only.
    var demand: Int?
}

/// The last `capacity` events, written by any number of threads without a lock or a counter
/// they all share.
///
/// Threads are spread over 8 lanes by their identity; each lane is a ring of `capacity` slots
/// of its own (made when a thread of the lane first records), with its own lock and count, so
/// threads of different lanes share nothing. Reading merges the lanes by time and keeps the
/// newest `capacity` events of all: a single-threaded program uses one lane, and memory is at
/// most one ring per lane in use.
final class TraceRing: @unchecked Sendable {
    /// One lane's slots and count, guarded by the lane's lock.
    private struct Lane {
        var slots: UnsafeMutablePointer<TraceEvent?>?
        /// How many events the lane has been given.
        var written = 0
        private let padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
    }

    private static let laneCount = 8

    let capacity: Int
    private let lanes: UnsafeMutablePointer<Lane>
    private let locks = LockStripes(count: TraceRing.laneCount)
    /// Cleared once by `close()`: nothing is written after it.
    private let open = Atomic<Bool>(true)

    init(capacity: Int) {
        self.capacity = capacity
        lanes = .allocate(capacity: Self.laneCount)
        lanes.initialize(repeating: Lane(), count: Self.laneCount)
    }

    deinit {
        for index in 0..<Self.laneCount {
            if let slots = lanes[index].slots {
                slots.deinitialize(count: capacity)
                slots.deallocate()
            }
        }
        lanes.deinitialize(count: Self.laneCount)
        lanes.deallocate()
    }

    /// Writes `event`, recorded on `thread`, into its lane, over the lane's oldest event once the
    /// lane is full.
    func append(_ event: TraceEvent) {
        guard open.load(ordering: .relaxed) else { return }
        let lane = threadStripe(of: event.thread, count: Self.laneCount)
        // The slot's previous event is released outside the lock (its track may go with it).
        var event: TraceEvent? = event
        locks.withLock(lane) {
            guard open.load(ordering: .relaxed) else { return }
            let slots = lanes[lane].slots ?? makeSlots(lane)
            swap(&slots[lanes[lane].written % capacity], &event)
            lanes[lane].written += 1
        }
        withExtendedLifetime(event) {}
    }

    /// Under lane `lane`'s lock: its slots, made now.
    private func makeSlots(_ lane: Int) -> UnsafeMutablePointer<TraceEvent?> {
        let slots = UnsafeMutablePointer<TraceEvent?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        lanes[lane].slots = slots
        return slots
    }

    /// Stops all writing: once it returns, no slot changes (a writer past the check when it
    /// was called has finished, one before it writes nothing).
    func close() {
        open.store(false, ordering: .relaxed)
        for lane in 0..<Self.laneCount { locks.withLock(lane) {} }
    }

    /// How many events each lane holds.
    private var held: [Int] {
        (0..<Self.laneCount).map { lane in locks.withLock(lane) { min(lanes[lane].written, capacity) } }
    }

    /// How many events a reading would give (the newest `capacity` of all lanes) and how many
    /// were dropped to keep within it.
    var counts: (kept: Int, dropped: Int) {
        let written = (0..<Self.laneCount).reduce(0) { total, lane in
            total + locks.withLock(lane) { lanes[lane].written }
        }
        let kept = min(held.reduce(0, +), capacity)
        return (kept, written - kept)
    }

    /// Calls `body` with the newest `capacity` events of all lanes, oldest first. Its order is
    /// found from the events' times: 16 bytes per event held, for the length of the call.
    func forEachEvent(_ body: (TraceEvent) throws -> Void) rethrows {
        var order: [(time: UInt64, lane: Int32, slot: Int32)] = []
        for lane in 0..<Self.laneCount {
            locks.withLock(lane) {
                guard let slots = lanes[lane].slots else { return }
                let written = lanes[lane].written
                for number in max(0, written - capacity)..<written {
                    let slot = number % capacity
                    if let time = slots[slot]?.time {
                        order.append((time, Int32(lane), Int32(truncatingIfNeeded: slot)))
                    }
                }
            }
        }
        order.sort { $0.time < $1.time }
        for entry in order.suffix(capacity) {
            let lane = Int(entry.lane)
            let event = locks.withLock(lane) { lanes[lane].slots?[Int(entry.slot)] }
            if let event { try body(event) }
        }
    }
}

/// A map split into 64 stripes by key, each with its own lock, for state that every event looks
/// up: events of unrelated pipelines rarely meet on one lock.
final class StripedMap<Key: Hashable, Value>: @unchecked Sendable {
    /// Stripe `i`'s entries, guarded by lock `i` of `stripes`.
    private let entries: UnsafeMutablePointer<[Key: Value]>
    private let stripes = LockStripes(count: 64)

    init() {
        entries = .allocate(capacity: stripes.count)
        entries.initialize(repeating: [:], count: stripes.count)
    }

    deinit {
        entries.deinitialize(count: stripes.count)
        entries.deallocate()
    }

    @inline(__always)
    private func stripe(for key: Key) -> Int {
        key.hashValue & (stripes.count - 1)
    }

    subscript(key: Key) -> Value? {
        let index = stripe(for: key)
        return stripes.withLock(index) { entries[index][key] }
    }

    /// Sets the value for `key`; the value it replaces is released after the lock.
    func set(_ value: Value, for key: Key) {
        let index = stripe(for: key)
        let replaced = stripes.withLock(index) { entries[index].updateValue(value, forKey: key) }
        withExtendedLifetime(replaced) {}
    }

    /// Changes the value for `key` under its stripe's lock (a missing one is `nil`; leaving
    /// `nil` removes it).
    func update<R>(_ key: Key, _ body: (inout Value?) -> R) -> R {
        let index = stripe(for: key)
        return stripes.withLock(index) {
            var value = entries[index].removeValue(forKey: key)
            let result = body(&value)
            if let value { entries[index][key] = value }
            return result
        }
    }

    /// Removes every entry (released after the locks).
    func removeAll() {
        var released: [[Key: Value]] = []
        for index in 0..<stripes.count {
            released.append(stripes.withLock(index) { entries[index].take() })
        }
        withExtendedLifetime(released) {}
    }

    /// How many entries the map holds.
    var count: Int {
        (0..<stripes.count).reduce(0) { total, index in total + stripes.withLock(index) { entries[index].count } }
    }
}

extension Dictionary {
    /// The dictionary, leaving it empty.
    fileprivate mutating func take() -> Self {
        let taken = self
        self = [:]
        return taken
    }
}
