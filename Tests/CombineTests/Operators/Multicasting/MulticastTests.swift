// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import CombineTesting
import Dispatch
import Foundation
import Testing

@Suite("share, multicast, makeConnectable, autoconnect")
struct MulticastTests {
    @Test func shareSubscribesUpstreamOnceForManySubscribers() {
        var subscriptions = 0
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.handleEvents(receiveSubscription: { _ in subscriptions += 1 }).share()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        subject.send(1)
        shared.subscribe(second)
        subject.send(2)
        #expect(subscriptions == 1)
        #expect(first.values == [1, 2])
        #expect(second.values == [2])
        subject.send(completion: .finished)
        #expect(first.completion == .finished)
        #expect(second.completion == .finished)
    }

    /// As Apple's: once the upstream has completed, a later subscriber gets the `Multicast`
    /// subscription and the completion only, and the upstream's work is not done again
    /// (this test expected a second subscription upstream before).
    @Test func shareDoesNotSubscribeAgainAfterCompletion() {
        var subscriptions = 0
        let shared = Deferred { () -> Just<Int> in
            subscriptions += 1
            return Just(subscriptions)
        }.share()
        var values: [Int] = []
        let first = shared.sink { values.append($0) }
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(subscriptions == 1)
        #expect(values == [1])
        #expect(late.values.isEmpty)
        #expect(late.completion == .finished)
        #expect(late.subscription.map { "\($0)" } == "Multicast")
        first.cancel()
    }

    /// Once every subscriber has cancelled, the next one subscribes upstream again.
    @Test func shareSubscribesAgainAfterEveryoneCancelled() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        first.cancel()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(second)
        #expect(upstream.subscriptionCount == 2)
        upstream.send(5)
        #expect(second.values == [5])
        #expect(first.values.isEmpty)
    }

    /// Apple's multicast puts a `Multicast` subscription between the subject and each
    /// subscriber; the demand a subscriber returns for a value is asked of the subject.
    @Test func multicastHandsOutItsOwnSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = Just(1).multicast(subject: subject)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
        multicast.subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "Multicast")
        subject.send(7)
        subject.send(8)
        #expect(subscriber.values == [7, 8])
    }

    @Test func shareCancelsUpstreamWhenTheLastSubscriberLeaves() {
        let upstream = TestPublisher<Int, Never>()
        let shared = upstream.share()
        let first = TestSubscriber<Int, Never>()
        let second = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        #expect(upstream.subscriptionCount == 1)
        first.cancel()
        #expect(upstream.cancelCount == 0)
        second.cancel()
        #expect(upstream.cancelCount == 1)
        #expect(shared == shared)
    }

    @Test func multicastWaitsForConnect() {
        let upstream = [1, 2, 3].publisher
        let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
        let subscriber = TestSubscriber<Int, Never>()
        multicast.subscribe(subscriber)
        #expect(subscriber.values.isEmpty)
        let connection = multicast.connect()
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == .finished)
        connection.cancel()
    }

    @Test func multicastWithASubjectAndMakeConnectable() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let multicast = [5].publisher.multicast(subject: subject)
        var values: [Int] = []
        let subscription = multicast.sink { values.append($0) }
        _ = multicast.connect()
        #expect(values == [0, 5])
        subscription.cancel()

        let connectable = Just(7).makeConnectable()
        var seen: [Int] = []
        let cancellable = connectable.sink { seen.append($0) }
        #expect(seen.isEmpty)
        _ = connectable.connect()
        #expect(seen == [7])
        cancellable.cancel()
    }

    @Test func autoconnectConnectsOnFirstSubscriberAndDisconnectsAfterTheLast() {
        let upstream = TestPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        let first = TestSubscriber<Int, Never>()
        auto.subscribe(first)
        #expect(upstream.subscriptionCount == 1)
        upstream.send(1)
        #expect(first.values == [1])
        first.cancel()
        #expect(upstream.cancelCount == 1)
    }

    /// As Apple's (the conformance suite's autoconnect re-entrance test records it): whether a
    /// subscriber connects is decided when it arrives, so one that subscribes from inside the
    /// first one's `receive(subscription:)`, before that one has connected, connects too: the
    /// upstream is subscribed twice. Only the connection made last is kept, with a count of one;
    /// `makeConnectable`'s connection is an `AnyCancellable`, so the one no longer kept cancels
    /// as it goes. The first cancel then ends the kept one, and the second finds nothing to end.
    @Test func aReentrantSubscriberDuringTheFirstConnectConnectsAgainAsApplesDoes() {
        let upstream = TestPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        let inner = TestSubscriber<Int, Never>()
        let outer = TestSubscriber<Int, Never>(onSubscription: { _ in auto.subscribe(inner) })
        auto.subscribe(outer)
        #expect(upstream.subscriptionCount == 2)
        #expect(upstream.cancelCount == 1)
        _ = upstream.send(1)
        #expect(outer.values == [1])
        #expect(inner.values == [1])
        outer.cancel()
        #expect(upstream.cancelCount == 2)
        inner.cancel()
        #expect(upstream.cancelCount == 2)
    }

    /// The same with a connectable publisher whose connection stays until it is cancelled:
    /// both connections stay, values arrive twice, and the first cancel ends only the kept one.
    @Test func aReentrantSubscriberLeavesTheFirstConnectionConnected() {
        let connections = LockedValue(0)
        let cancels = LockedValue(0)
        let subject = PassthroughSubject<Int, Never>()
        let auto = CountingConnectable(subject: subject, connections: connections, cancels: cancels).autoconnect()
        let inner = TestSubscriber<Int, Never>()
        let outer = TestSubscriber<Int, Never>(onSubscription: { _ in auto.subscribe(inner) })
        auto.subscribe(outer)
        #expect(connections.current == 2)
        outer.cancel()
        #expect(cancels.current == 1)
        subject.send(7)
        #expect(inner.values == [7])
        inner.cancel()
        #expect(cancels.current == 1)
    }

    /// A subscriber that hands its subscription to another thread, which cancels it while
    /// `connect()` still runs: once made, the connection is cancelled (nobody is left to count
    /// it), and the next subscriber connects again. It was kept, counted for the subscriber that
    /// had left, so that the count never returned to zero and nothing ever disconnected it.
    @Test func aCancelDuringTheFirstConnectCancelsTheConnectionOnceMade() async {
        await offThePool {
            let connections = LockedValue(0)
            let cancels = LockedValue(0)
            let cancelled = DispatchSemaphore(value: 0)
            let connectable = CountingConnectable(
                subject: PassthroughSubject(), connections: connections, cancels: cancels,
                duringConnect: { #expect(cancelled.wait(timeout: .now() + 30) == .success) })
            let auto = connectable.autoconnect()
            auto.subscribe(Self.cancelledFromAnotherThread(then: cancelled))
            #expect(connections.current == 1)
            #expect(cancels.current == 1)
            let later = TestSubscriber<Int, Never>()
            cancelled.signal()  // the next connect goes straight through
            auto.subscribe(later)
            #expect(connections.current == 2)
            later.cancel()
            #expect(cancels.current == 2)
        }
    }

    /// A subscriber that hands its subscription to a new thread, which cancels it and then
    /// signals `then`.
    static func cancelledFromAnotherThread(then cancelled: DispatchSemaphore) -> AnySubscriber<Int, Never> {
        AnySubscriber(receiveSubscription: { subscription in
            let handed = UncheckedSendable(subscription)
            Thread {
                handed.value.cancel()
                cancelled.signal()
            }.start()
        })
    }

    /// The same through `share()`: the upstream subscription its connection made is cancelled
    /// once made.
    @Test func shareCancelsTheUpstreamOfAConnectionEveryoneLeftWhileItWasMade() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let upstreamCancels = LockedValue(0)
            let cancelled = DispatchSemaphore(value: 0)
            let shared = Deferred { () -> Publishers.HandleEvents<PassthroughSubject<Int, Never>> in
                #expect(cancelled.wait(timeout: .now() + 30) == .success)
                return subject.handleEvents(receiveCancel: { upstreamCancels.increment() })
            }.share()
            shared.subscribe(Self.cancelledFromAnotherThread(then: cancelled))
            #expect(upstreamCancels.current == 1)
        }
    }
}

@Suite("Subject subscribers at their edges, as Apple's")
struct SubjectSubscriberEdgeTests {
    /// A subject fed by an upstream ignores what that upstream sends before its subscription,
    /// as Apple's subject subscriber does.
    @Test func eventsBeforeTheSubscriptionAreDropped() {
        let upstream = HeldSubscriberPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        let connection = upstream.subscribe(subject)
        _ = upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.values.isEmpty)
        #expect(subscriber.completion == nil)
        upstream.send(subscription: RecordingSubscription())
        _ = upstream.send(2)
        #expect(subscriber.values == [2])
        connection.cancel()
    }
}

/// A connectable publisher over a subject that counts its connections and their cancels; a
/// connection is a plain cancellable that does nothing when it is let go.
private struct CountingConnectable: ConnectablePublisher {
    typealias Output = Int
    typealias Failure = Never

    let subject: PassthroughSubject<Int, Never>
    let connections: LockedValue<Int>
    let cancels: LockedValue<Int>
    /// Runs inside `connect()`, before it returns.
    var duringConnect: @Sendable () -> Void = {}

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subject.subscribe(subscriber)
    }

    func connect() -> Cancellable {
        connections.withLock { $0 += 1 }
        duringConnect()
        return Connection(cancels: cancels)
    }

    private final class Connection: Cancellable {
        let cancels: LockedValue<Int>
        init(cancels: LockedValue<Int>) { self.cancels = cancels }
        func cancel() { cancels.withLock { $0 += 1 } }
    }
}
