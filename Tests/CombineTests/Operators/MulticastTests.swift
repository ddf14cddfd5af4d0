import Combine
import CombineTesting
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

    @Test func shareSubscribesAgainAfterCompletion() {
        var subscriptions = 0
        let shared = Deferred { () -> Just<Int> in
            subscriptions += 1
            return Just(subscriptions)
        }.share()
        var values: [Int] = []
        let first = shared.sink { values.append($0) }
        let second = shared.sink { values.append($0) }
        first.cancel()
        second.cancel()
        #expect(subscriptions == 2)
        #expect(values == [1, 2])
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
}
