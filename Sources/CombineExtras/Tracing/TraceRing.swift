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
    var detail: String?
    /// The track's outstanding demand after this event (`nil`: unlimited); read for values and
    /// requests only.
    var demand: Int?
}

/// The last `capacity` events, written by any number of threads without a lock they all share.
///
/// Each event takes the next number from one atomic counter; its slot is the number modulo the
/// capacity, guarded by one of 64 stripe locks (slot modulo 64), so two threads contend only
/// when their events land on the same stripe at the same moment. A slot remembers the number
/// of the event it holds: a reader takes exactly the numbers the ring still holds, in order.
final class TraceRing: @unchecked Sendable {
    private struct Slot {
        var number = -1
        var event: TraceEvent?
    }

    /// A stripe's lock, in an allocation of its own (the padding keeps two off one cache line).
    private final class Stripe: @unchecked Sendable {
        let lock = Lock()
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    private static let stripeCount = 64

    let capacity: Int
    private let slots: UnsafeMutablePointer<Slot>
    private let stripes: [Stripe] = (0..<TraceRing.stripeCount).map { _ in Stripe() }
    /// How many events have been given a number.
    private let numbered = Atomic<Int>(0)
    /// Cleared once by `close()`: nothing is written after it.
    private let open = Atomic<Bool>(true)

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(), count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// Writes `event` over the oldest event once the ring is full.
    func append(_ event: TraceEvent) {
        guard open.load(ordering: .relaxed) else { return }
        let number = numbered.wrappingAdd(1, ordering: .relaxed).oldValue
        let index = number % capacity
        let stripe = stripes[index & (Self.stripeCount - 1)]
        // The slot's previous event is released outside the lock (its track may go with it).
        var previous: TraceEvent?
        stripe.lock.withLock {
            guard open.load(ordering: .relaxed), slots[index].number < number else { return }
            previous = slots[index].event.take()
            slots[index] = Slot(number: number, event: event)
        }
        withExtendedLifetime(previous) {}
    }

    /// Stops all writing: once it returns, no slot changes (a writer past the check when it
    /// was called has finished, one before it writes nothing).
    func close() {
        open.store(false, ordering: .relaxed)
        for stripe in stripes { stripe.lock.withLock {} }
    }

    /// How many events the ring holds and how many it dropped (counted as they were numbered).
    var counts: (kept: Int, dropped: Int) {
        let total = numbered.load(ordering: .relaxed)
        return (min(total, capacity), max(0, total - capacity))
    }

    /// Calls `body` with each event the ring holds, oldest first.
    func forEachEvent(_ body: (TraceEvent) throws -> Void) rethrows {
        let total = numbered.load(ordering: .relaxed)
        for number in max(0, total - capacity)..<total {
            let index = number % capacity
            let event = stripes[index & (Self.stripeCount - 1)].lock.withLock {
                slots[index].number == number ? slots[index].event : nil
            }
            if let event { try body(event) }
        }
    }
}

/// A map split into 64 stripes by key, each with its own lock, for state that every event looks
/// up: events of unrelated pipelines rarely meet on one lock.
final class StripedMap<Key: Hashable, Value>: @unchecked Sendable {
    private final class Stripe: @unchecked Sendable {
        let lock = Lock()
        @exclusivity(unchecked) var entries: [Key: Value] = [:]
        private let padding: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
    }

    private let stripes: [Stripe] = (0..<64).map { _ in Stripe() }

    private func stripe(for key: Key) -> Stripe {
        stripes[key.hashValue & 63]
    }

    subscript(key: Key) -> Value? {
        let stripe = stripe(for: key)
        return stripe.lock.withLock { stripe.entries[key] }
    }

    /// Sets the value for `key`; the value it replaces is released after the lock.
    func set(_ value: Value, for key: Key) {
        let stripe = stripe(for: key)
        let replaced = stripe.lock.withLock { stripe.entries.updateValue(value, forKey: key) }
        withExtendedLifetime(replaced) {}
    }

    /// Changes the value for `key` under its stripe's lock (a missing one is `nil`; leaving
    /// `nil` removes it).
    func update<R>(_ key: Key, _ body: (inout Value?) -> R) -> R {
        let stripe = stripe(for: key)
        return stripe.lock.withLock {
            var value = stripe.entries.removeValue(forKey: key)
            let result = body(&value)
            if let value { stripe.entries[key] = value }
            return result
        }
    }

    /// Removes and returns the value for `key`, released by the caller after the lock.
    @discardableResult
    func remove(_ key: Key) -> Value? {
        let stripe = stripe(for: key)
        return stripe.lock.withLock { stripe.entries.removeValue(forKey: key) }
    }

    /// Removes every entry (released after the locks).
    func removeAll() {
        var released: [[Key: Value]] = []
        for stripe in stripes {
            released.append(stripe.lock.withLock { stripe.entries.take() })
        }
        withExtendedLifetime(released) {}
    }

    /// How many entries the map holds.
    var count: Int {
        stripes.reduce(0) { total, stripe in total + stripe.lock.withLock { stripe.entries.count } }
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
