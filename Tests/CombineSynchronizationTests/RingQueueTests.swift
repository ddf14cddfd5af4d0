// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import CombineSynchronization

@Suite("RingQueue: order, growth, wrap-around, capacity kept")
struct RingQueueTests {
    @Test("an empty queue pops nothing and holds no storage")
    func empty() {
        var queue = RingQueue<Int>()
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
        #expect(queue.slots.isEmpty)
    }

    @Test("elements come out oldest first across growth: 4, 8, 16, … slots")
    func growthKeepsOrder() {
        var queue = RingQueue<Int>()
        for value in 0..<100 { queue.append(value) }
        #expect(queue.count == 100)
        #expect(queue.slots.count == 128)
        #expect(queue.elements == Array(0..<100))
        var popped: [Int] = []
        while let value = queue.popFirst() { popped.append(value) }
        #expect(popped == Array(0..<100))
        #expect(queue.isEmpty)
    }

    @Test("the head wraps around the end of the ring, and growth from a wrapped ring keeps order")
    func wrapAround() {
        var queue = RingQueue<Int>()
        for value in 0..<4 { queue.append(value) }  // full at 4 slots
        #expect(queue.popFirst() == 0)
        #expect(queue.popFirst() == 1)
        queue.append(4)
        queue.append(5)  // written at slots 0 and 1: the ring has wrapped
        #expect(queue.slots.count == 4)
        #expect(queue.head == 2)
        #expect(queue.elements == [2, 3, 4, 5])
        queue.append(6)  // grows from the wrapped state
        #expect(queue.slots.count == 8)
        #expect(queue.head == 0)
        #expect(queue.elements == [2, 3, 4, 5, 6])
        var popped: [Int] = []
        while let value = queue.popFirst() { popped.append(value) }
        #expect(popped == [2, 3, 4, 5, 6])
    }

    @Test("a steady one-in, one-out queue allocates once: the capacity stays")
    func steadyStateKeepsCapacity() {
        var queue = RingQueue<Int>()
        queue.append(0)
        for value in 1..<1_000 {
            queue.append(value)
            #expect(queue.popFirst() == value - 1)
        }
        #expect(queue.slots.count == 4)
        #expect(queue.count == 1)
    }

    final class Token {}

    /// A queue holding a token followed by `others` more, and a way to ask whether the first is
    /// still alive (held only by the queue).
    func queueWithTrackedToken(others: Int) -> (RingQueue<Token>, isAlive: () -> Bool) {
        var queue = RingQueue<Token>()
        let token = Token()
        weak let tracked = token
        queue.append(token)
        for _ in 0..<others { queue.append(Token()) }
        return (queue, { tracked != nil })
    }

    @Test("removeAll empties the queue, keeps the capacity and releases the elements")
    func removeAllKeepsCapacity() {
        var (queue, isAlive) = queueWithTrackedToken(others: 9)
        #expect(isAlive())
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.slots.count == 16)
        #expect(!isAlive(), "an element outlived removeAll")
    }

    @Test("popping releases the element at once, not when its slot is reused")
    func popReleases() {
        var (queue, isAlive) = queueWithTrackedToken(others: 1)
        #expect(isAlive())
        _ = queue.popFirst()
        #expect(!isAlive())
    }
}
