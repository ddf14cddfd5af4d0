// SPDX-License-Identifier: Apache-2.0
/// A first-in, first-out queue in a ring of slots whose capacity doubles as needed and is
/// kept when the queue empties: in the steady state of a fan-in operator (one value in, one
/// value out) it allocates nothing.
///
/// Everything is `@inlinable` so that the queue specialises for its element type in the
/// caller's module (the standard library's `removeAll(keepingCapacity:)` and `removeFirst()`
/// run unspecialised there, and looked up type metadata on every value).
@usableFromInline
package struct RingQueue<Element> {
    @usableFromInline package var slots: ContiguousArray<Element?> = []
    // Two 32-bit halves: the queue then takes 16 bytes in its owner, not 24 (a subject's
    // subscription holds one; issue 30's heap per live subscription).
    @usableFromInline package var headIndex: UInt32 = 0
    @usableFromInline package var storedCount: UInt32 = 0

    /// The slot of the oldest element.
    @inlinable
    package var head: Int {
        get { Int(headIndex) }
        set { headIndex = UInt32(truncatingIfNeeded: newValue) }
    }

    /// The number of elements.
    @inlinable
    package var count: Int {
        get { Int(storedCount) }
        set { storedCount = UInt32(truncatingIfNeeded: newValue) }
    }

    @inlinable
    package init() {}

    @inlinable
    package var isEmpty: Bool { count == 0 }

    @inlinable
    package mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head &+ count) & (slots.count &- 1)] = element
        count &+= 1
    }

    /// Removes and returns the oldest element, if any.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = (head &+ 1) & (slots.count &- 1)
        count &-= 1
        return element
    }

    /// Removes every element, keeping the capacity.
    @inlinable
    package mutating func removeAll() {
        while popFirst() != nil {}
        head = 0
    }

    /// Doubles the capacity (a power of two, at least 4), keeping the order.
    @inlinable
    package mutating func grow() {
        let capacity = Swift.max(4, slots.count &* 2)
        if capacity > Int(UInt32.max) { fatalError("RingQueue: more than 2^31 elements queued") }
        var grown = ContiguousArray<Element?>(repeating: nil, count: capacity)
        for offset in 0..<count {
            grown[offset] = slots[(head &+ offset) & (slots.count &- 1)]
        }
        slots = grown
        head = 0
    }
}

extension RingQueue {
    /// The elements, oldest first (for mirrors; not on a hot path).
    package var elements: [Element] {
        (0..<count).map { slots[(head &+ $0) & (slots.count &- 1)]! }
    }
}
