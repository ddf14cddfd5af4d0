// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

/// `AnyCancellable`, in one place: the action runs once (on cancel or at deinit, whichever comes
/// first, also when threads race), what it holds is let go after it, and its identity is the
/// object's.
@Suite("AnyCancellable")
struct AnyCancellableTests {
    final class Canceller: Cancellable {
        var cancelCount = 0
        func cancel() { cancelCount += 1 }
    }

    final class Token {}

    @Test("the action runs at deinit, or at the first cancel and never again")
    func actionRunsOnce() {
        let count = LockedValue(0)
        do {
            _ = AnyCancellable { count.withLock { $0 += 1 } }
        }
        #expect(count.current == 1, "deinit runs it")
        do {
            let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
            cancellable.cancel()
            cancellable.cancel()
            #expect(count.current == 2, "the first cancel runs it, the second does nothing")
        }
        #expect(count.current == 2, "deinit after a cancel does nothing")
    }

    @Test("threads racing cancel and the last release run the action once")
    func manyThreadsRacingCancelAndDeinitRunTheActionOnce() async {
        await offThePool {
            for _ in 0..<200 {
                let count = LockedValue(0)
                let shared = LockedValue<AnyCancellable?>(AnyCancellable { count.withLock { $0 += 1 } })
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    if index == 7 {
                        shared.withLock { $0 = nil }  // the last reference may go while others cancel
                    } else {
                        shared.current?.cancel()
                    }
                }
                #expect(count.current == 1)
            }
        }
    }

    @Test("a wrapped cancellable is cancelled once (at deinit too) and let go after")
    func wrappedCancellable() {
        let canceller = Canceller()
        do {
            _ = AnyCancellable(canceller)
        }
        #expect(canceller.cancelCount == 1)
        let again = Canceller()
        let twice = AnyCancellable(again)
        twice.cancel()
        twice.cancel()
        #expect(again.cancelCount == 1)

        weak var weakCanceller: Canceller?
        let cancellable: AnyCancellable
        do {
            let other = Canceller()
            weakCanceller = other
            cancellable = AnyCancellable(other)
        }
        #expect(weakCanceller != nil)
        cancellable.cancel()
        #expect(weakCanceller == nil)
    }

    @Test("the closure, and what it captures, is let go at cancel")
    func releasesItsClosureAfterCancel() {
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

    @Test("stored in a set (once) or an array, it lives until the collection lets go")
    func storingKeepsItAliveUntilTheCollectionLetsGo() {
        let count = LockedValue(0)
        var set = Set<AnyCancellable>()
        var array = [AnyCancellable]()
        let inSet = AnyCancellable { count.withLock { $0 += 1 } }
        inSet.store(in: &set)
        inSet.store(in: &set)
        #expect(set.count == 1)
        AnyCancellable { count.withLock { $0 += 1 } }.store(in: &array)
        #expect(count.current == 0)
        array = []
        #expect(count.current == 1)
        set = []
        #expect(count.current == 1, "the set's was still held here")
        withExtendedLifetime(inSet) {}
    }

    @Test("a subscriber stored through Cancellable.store is wrapped, and cancelled when let go")
    func cancellableStoreInAnArrayCancelsTheWrappedSubscriber() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.subscribe(subscriber)
        var array: [AnyCancellable] = []
        subscriber.store(in: &array)
        #expect(array.count == 1)
        #expect(upstream.cancelCount == 0)
        array.removeAll()
        #expect(upstream.cancelCount == 1)
    }

    @Test("equal and hashed by identity, not by action")
    func equalityAndHashingAreByIdentityNotByAction() {
        let action: () -> Void = {}
        let a = AnyCancellable(action)
        let b = AnyCancellable(action)
        #expect(a == a)
        #expect(a != b)
        #expect(a.hashValue == a.hashValue)
        var set: Set<AnyCancellable> = [a, b, a]
        #expect(set.count == 2)
        set.remove(a)
        #expect(set == [b])
    }
}
