// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private final class Thermometer {
    @Published var reading: Double
    init(reading: Double) { self.reading = reading }
}

private final class Doubler {
    @Published var input = 0
    @Published var doubled = 0
    init() {
        $input.map { $0 * 2 }.assign(to: &$doubled)
    }
}

private final class Follower {
    @Published var value = 0
}

@Suite("@Published")
struct PublishedTests {
    @Test func emitsTheCurrentValueThenEachNewValue() {
        let thermometer = Thermometer(reading: 20)
        var readings: [Double] = []
        let cancellable = thermometer.$reading.sink { readings.append($0) }
        thermometer.reading = 25
        thermometer.reading = 25
        #expect(readings == [20, 25, 25])
        cancellable.cancel()
        thermometer.reading = 30
        #expect(readings == [20, 25, 25])
    }

    @Test func subscribersReceiveTheNewValueBeforeThePropertyHoldsIt() {
        let thermometer = Thermometer(reading: 20)
        var seen: [(received: Double, property: Double)] = []
        let cancellable = thermometer.$reading.sink { seen.append(($0, thermometer.reading)) }
        thermometer.reading = 25
        #expect(seen.map(\.received) == [20, 25])
        #expect(seen.map(\.property) == [20, 20])
        #expect(thermometer.reading == 25)
        _ = cancellable
    }

    @Test func initialValueInitializerStoresTheValue() {
        let published = Published(initialValue: 3)
        let subscriber = TestSubscriber<Int, Never>()
        published.projectedValue.subscribe(subscriber)
        #expect(subscriber.values == [3])
    }

    /// As Apple's: a value dropped for lack of demand makes the next request deliver the
    /// property's current value.
    @Test func deliversWithinDemandAndNeverCompletes() {
        let thermometer = Thermometer(reading: 1)
        let subscriber = TestSubscriber<Double, Never>(initialDemand: .none)
        thermometer.$reading.subscribe(subscriber)
        thermometer.reading = 2
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [2])  // the current value on the first request
        thermometer.reading = 3  // no demand left: dropped, so the next request delivers it
        thermometer.reading = 4
        subscriber.request(.max(1))
        #expect(subscriber.values == [2, 4])
        thermometer.reading = 5  // no demand left: dropped
        #expect(subscriber.values == [2, 4])
        #expect(subscriber.completion == nil)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func assignToPublishedRepublishesEachElement() {
        let doubler = Doubler()
        var doubled: [Int] = []
        let cancellable = doubler.$doubled.sink { doubled.append($0) }
        doubler.input = 3
        doubler.input = 5
        #expect(doubled == [0, 6, 10])  // the current value, then 6 and 10
        #expect(doubler.doubled == 10)
        _ = cancellable
    }

    @Test func assignToPublishedMakesNoReferenceCycle() {
        weak var weakDoubler: Doubler?
        do {
            let doubler = Doubler()
            weakDoubler = doubler
            doubler.input = 1
            #expect(doubler.doubled == 2)
        }
        #expect(weakDoubler == nil)
    }

    @Test func assignToPublishedEndsWithTheObject() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakFollower: Follower?
        do {
            let follower = Follower()
            weakFollower = follower
            upstream.assign(to: &follower.$value)
            #expect(upstream.requests == [.unlimited])
            upstream.send(7)
            #expect(follower.value == 7)
        }
        #expect(weakFollower == nil)
        #expect(upstream.cancelCount == 1)
    }

    @Test func assignToPublishedIgnoresTheUpstreamCompletion() {
        let follower = Follower()
        [1, 2, 3].publisher.assign(to: &follower.$value)
        #expect(follower.value == 3)
        follower.value = 4
        let subscriber = TestSubscriber<Int, Never>()
        follower.$value.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4)])
    }
}
