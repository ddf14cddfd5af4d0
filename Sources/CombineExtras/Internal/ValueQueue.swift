/// A first-in, first-out queue: appends at the back and takes from the front in amortised
/// constant time. A taken element is released at once (its slot is cleared), and the storage
/// is compacted when the taken front outgrows the rest.
struct ValueQueue<Element> {
    private var storage: [Element?] = []
    private var head = 0

    /// Whether the queue holds no element.
    var isEmpty: Bool { head == storage.count }

    /// The number of elements held.
    var count: Int { storage.count - head }

    /// The elements, front first.
    var elements: [Element] { storage[head...].map { $0! } }

    /// Adds `element` at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element, or returns `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Empties the queue and returns what it held, so the caller can release it where it
    /// chooses (outside a lock).
    mutating func removeAll() -> [Element] {
        defer {
            storage = []
            head = 0
        }
        return elements
    }
}
