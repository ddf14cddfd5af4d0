// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Synchronization
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
    final class Counter: @unchecked Sendable {
        let count = Atomic<Int>(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    final class Token {}

    @Test func cancelsOnDeinit() {
        let counter = Counter()
        var cancellable: AnyCancellable? = AnyCancellable { counter.increment() }
        _ = cancellable
        cancellable = nil
        #expect(counter.value == 1)
    }

    @Test func cancelsOnceEvenFromManyThreads() {
        let counter = Counter()
        let cancellable = AnyCancellable { counter.increment() }
        DispatchQueue.concurrentPerform(iterations: 64) { _ in cancellable.cancel() }
        #expect(counter.value == 1)
    }

    @Test func wrapsACancellable() {
        final class Inner: Cancellable {
            var cancelled = 0
            func cancel() { cancelled += 1 }
        }
        let inner = Inner()
        let cancellable = AnyCancellable(inner)
        cancellable.cancel()
        cancellable.cancel()
        #expect(inner.cancelled == 1)
    }

    @Test func releasesItsClosureAfterCancel() {
        weak var weakToken: Token?
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = AnyCancellable { _ = token }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }

    @Test func storesInSetsAndCollections() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        let a = AnyCancellable { counter.increment() }
        a.store(in: &set)
        a.store(in: &set)
        AnyCancellable { counter.increment() }.store(in: &array)
        #expect(set.count == 1)
        #expect(array.count == 1)
        set.removeAll()
        array.removeAll()
        #expect(counter.value == 1)  // `a` is still alive here
        withExtendedLifetime(a) {}
    }

    @Test func cancellableStoreWrapsInAnyCancellable() {
        let subject = PassthroughSubject<Int, Never>()
        var set = Set<AnyCancellable>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        subject.subscribe(sink)
        sink.store(in: &set)
        #expect(set.count == 1)
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        #expect(a.hashValue == a.hashValue)
    }
}
