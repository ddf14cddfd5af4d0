// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Relays: subjects that only accept values")
struct RelayTests {
    @Test func aPassthroughRelayPassesAcceptedValuesToCurrentSubscribers() {
        let relay = PassthroughRelay<Int>()
        relay.accept(0)
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        relay.accept(1)
        relay.accept(2)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func aVoidRelayAcceptsWithoutAnArgument() {
        let relay = PassthroughRelay<Void>()
        let taps = LockedValue(0)
        let cancellable = relay.sink { taps.increment() }
        relay.accept()
        relay.accept()
        #expect(taps.current == 2)
        withExtendedLifetime(cancellable) {}
    }

    @Test func aCurrentValueRelayHoldsAndSendsItsValue() {
        let relay = CurrentValueRelay("a")
        #expect(relay.value == "a")
        let early = TestSubscriber<String, Never>()
        relay.subscribe(early)
        relay.accept("b")
        #expect(relay.value == "b")
        let late = TestSubscriber<String, Never>()
        relay.subscribe(late)
        #expect(early.values == ["a", "b"])
        #expect(late.values == ["b"])
    }

    @Test func relaysRespectDemand() {
        let passthrough = PassthroughRelay<Int>()
        let current = CurrentValueRelay(0)
        let first = TestSubscriber<Int, Never>(initialDemand: .max(1))
        let second = TestSubscriber<Int, Never>(initialDemand: .max(1))
        passthrough.subscribe(first)
        current.subscribe(second)
        for value in 1...3 {
            passthrough.accept(value)
            current.accept(value)
        }
        #expect(first.values == [1])
        #expect(second.values == [0])
        #expect(first.violations == [])
        #expect(second.violations == [])
    }

    @Test(arguments: [false, true])
    func subscribersAreFinishedWhenTheRelayGoesAway(_ current: Bool) {
        let subscriber = TestSubscriber<Int, Never>()
        weak var weakRelay: AnyObject?
        do {
            if current {
                let relay = CurrentValueRelay(1)
                weakRelay = relay
                relay.subscribe(subscriber)
                withExtendedLifetime(relay) { #expect(subscriber.completion == nil) }
            } else {
                let relay = PassthroughRelay<Int>()
                weakRelay = relay
                relay.subscribe(subscriber)
                relay.accept(1)
                withExtendedLifetime(relay) { #expect(subscriber.completion == nil) }
            }
        }
        #expect(weakRelay == nil)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func aRelayFedByAPublisherIgnoresItsCompletion() {
        let relay = CurrentValueRelay(0)
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        let source = PassthroughSubject<Int, Never>()
        let binding = relay.subscribe(source)
        source.send(1)
        source.send(completion: .finished)
        relay.accept(2)
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2)])
        withExtendedLifetime(binding) {}
    }

    @Test func cancellingTheBindingStopsTheFeed() {
        let relay = PassthroughRelay<Int>()
        let subscriber = TestSubscriber<Int, Never>()
        relay.subscribe(subscriber)
        let source = PassthroughSubject<Int, Never>()
        let binding = source.subscribe(relay)  // the publisher's side: the same binding
        source.send(1)
        binding.cancel()
        source.send(2)
        #expect(subscriber.values == [1])
    }

    @Test func aRelaySubscribedToAnotherReceivesWhatTheOtherAccepts() {
        let target = PassthroughRelay<Int>()
        let feeder = CurrentValueRelay(7)
        let subscriber = TestSubscriber<Int, Never>()
        target.subscribe(subscriber)
        let binding = target.subscribe(feeder)
        feeder.accept(8)
        target.accept(9)
        #expect(subscriber.values == [7, 8, 9])
        #expect(feeder.value == 8)
        withExtendedLifetime(binding) {}
    }

    @Test func aBindingDoesNotKeepTheRelayAlive() {
        let source = PassthroughSubject<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        weak var weakRelay: PassthroughRelay<Int>?
        var binding: AnyCancellable?
        do {
            let relay = PassthroughRelay<Int>()
            weakRelay = relay
            relay.subscribe(subscriber)
            binding = relay.subscribe(source)
        }
        #expect(weakRelay == nil)
        source.send(1)  // reaches nobody
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        binding?.cancel()
    }

    @Test func acceptsFromManyThreadsAreEachDeliveredOnce() async {
        await offThePool {
            let relay = PassthroughRelay<Int>()
            let current = CurrentValueRelay(-1)
            let first = TestSubscriber<Int, Never>()
            let second = TestSubscriber<Int, Never>()
            relay.subscribe(first)
            current.subscribe(second)
            runOverlapping(threads: 8) { thread in
                for step in 0..<250 {
                    relay.accept(thread * 250 + step)
                    current.accept(thread * 250 + step)
                }
            }
            #expect(first.values.sorted() == Array(0..<2_000))
            #expect(second.values.sorted() == Array(-1..<2_000))
            #expect(first.violations == [])
            #expect(second.violations == [])
        }
    }

    @Test(arguments: [false, true])
    func cancellingASubscriberStopsItsDeliveryAndNoOneElses(_ current: Bool) {
        let passthrough = PassthroughRelay<Int>()
        let currentValue = CurrentValueRelay(0)
        let relay: any Relay<Int> = current ? currentValue : passthrough
        let cancelled = TestSubscriber<Int, Never>()
        let staying = TestSubscriber<Int, Never>()
        let sunk = LockedValue<[Int]>([])
        relay.subscribe(cancelled)
        relay.subscribe(staying)
        let sink = relay.sink { sunk.append($0) }
        relay.accept(1)
        cancelled.cancel()
        sink.cancel()
        relay.accept(2)
        relay.accept(3)
        let before = current ? [0] : []
        #expect(cancelled.values == before + [1])
        #expect(sunk.current == before + [1])
        #expect(staying.values == before + [1, 2, 3])
        #expect(cancelled.completion == nil)  // a cancelled subscriber gets no completion either
        #expect(cancelled.violations == [])
    }

    @Test(arguments: [false, true])
    func aSubscriberIsReleasedAfterCancelOrTheRelaysEnd(_ byCancel: Bool) {
        let relay = LockedValue<CurrentValueRelay<Int>?>(CurrentValueRelay(0))
        expectReleasedAfterEnd(
            byCancel: byCancel,
            attach: { subscriber, probe in relay.current?.subscribe(subscriber.holding(probe)) },
            drive: { relay.current?.accept(1) },
            complete: { relay.set(nil) })
    }
}
