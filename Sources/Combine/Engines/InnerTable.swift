// SPDX-License-Identifier: Apache-2.0
/// The live inner subscriptions of a `flatMap` / `switchToLatest`, each known by an
/// ``InnerTable/ID`` that its subscriber carries.
///
/// Slots are reused, each with a generation number, so that adding, finding and removing
/// an inner are constant-time array operations (a dictionary keyed by a counter hashed every
/// id three times per inner publisher: measured, a tenth of `flatMap { Just($0) }`'s cost).
/// A subscriber whose slot was emptied and reused finds a different generation there and is
/// treated as gone. Not thread-safe: guarded by the owner's lock.
@usableFromInline
struct InnerTable {
    @usableFromInline
    struct ID: Equatable {
        @usableFromInline let slot: Int
        @usableFromInline let generation: Int

        @inlinable
        init(slot: Int, generation: Int) {
            self.slot = slot
            self.generation = generation
        }
    }

    @usableFromInline
    struct Entry {
        @usableFromInline var generation: Int
        @usableFromInline var isLive: Bool
        /// `nil` until the inner publisher's subscription arrives.
        @usableFromInline var subscription: Subscription?
        /// switchToLatest: the inner finished but stays the current one (see
        /// ``markFinished(_:releasing:)``).
        @usableFromInline var finished: Bool

        @inlinable
        init(generation: Int) {
            self.generation = generation
            self.isLive = true
            self.subscription = nil
            self.finished = false
        }
    }

    @usableFromInline var entries: ContiguousArray<Entry> = []
    @usableFromInline var freeSlots: ContiguousArray<Int> = []
    @usableFromInline var nextGeneration = 0
    /// How many inners are live and running (not finished).
    @usableFromInline var count = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Adds a live inner, not yet subscribed, and returns its id.
    @inlinable
    mutating func insert() -> ID {
        let generation = nextGeneration
        nextGeneration &+= 1
        count += 1
        if let slot = freeSlots.popLast() {
            entries[slot] = Entry(generation: generation)
            return ID(slot: slot, generation: generation)
        }
        entries.append(Entry(generation: generation))
        return ID(slot: entries.count - 1, generation: generation)
    }

    @inlinable
    func contains(_ id: ID) -> Bool {
        id.slot < entries.count && entries[id.slot].isLive && entries[id.slot].generation == id.generation
    }

    /// The subscription of a live inner; `nil` if it is gone or not subscribed yet.
    @inlinable
    func subscription(of id: ID) -> Subscription? {
        contains(id) ? entries[id.slot].subscription : nil
    }

    /// Records the subscription of a live inner that has none yet; `false` if the inner is
    /// gone or already subscribed.
    @inlinable
    mutating func attach(_ subscription: Subscription, to id: ID) -> Bool {
        guard contains(id), entries[id.slot].subscription == nil else { return false }
        entries[id.slot].subscription = subscription
        return true
    }

    /// Removes a live inner; `false` if it was already gone. Its subscription is moved to
    /// `released`, for the caller to let go of after releasing its lock.
    @inlinable
    mutating func remove(_ id: ID, releasing released: inout Subscription?) -> Bool {
        guard contains(id) else { return false }
        entries[id.slot].isLive = false
        released = entries[id.slot].subscription.take()
        if !entries[id.slot].finished { count -= 1 }
        freeSlots.append(id.slot)
        return true
    }

    /// Whether the inner's subscription has not arrived yet (and it has not finished).
    @inlinable
    func isAwaitingSubscription(_ id: ID) -> Bool {
        contains(id) && entries[id.slot].subscription == nil && !entries[id.slot].finished
    }

    /// switchToLatest, as Apple's: a finished inner stays current (its later subscription is
    /// taken, its later values delivered) but no longer counts as running (``isEmpty``).
    /// - Returns: Whether it was running.
    @inlinable
    mutating func markFinished(_ id: ID, releasing released: inout Subscription?) -> Bool {
        guard contains(id), !entries[id.slot].finished else { return false }
        entries[id.slot].finished = true
        released = entries[id.slot].subscription.take()
        count -= 1
        return true
    }

    /// The subscriptions of the live inners, in no particular order.
    @usableFromInline
    var subscriptions: [Subscription] {
        var result: [Subscription] = []
        for entry in entries where entry.isLive {
            if let subscription = entry.subscription { result.append(subscription) }
        }
        return result
    }

    /// Empties the table and returns the subscriptions it held. The slots stay allocated, for
    /// reuse (a table holds at most as many slots as inners were ever live at once).
    @usableFromInline
    mutating func removeAll() -> [Subscription] {
        guard !entries.isEmpty else { return [] }
        var all: [Subscription] = []
        for slot in entries.indices where entries[slot].isLive {
            if let subscription = entries[slot].subscription { all.append(subscription) }
            entries[slot].isLive = false
            entries[slot].subscription = nil
            freeSlots.append(slot)
        }
        count = 0
        return all
    }
}
