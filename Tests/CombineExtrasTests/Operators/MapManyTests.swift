// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("mapMany")
struct MapManyTests {
    @Test func mapsEveryElementOfEachCollection() {
        let subscriber = TestSubscriber<[String], Never>()
        [[1, 2], [], [3]].publisher.mapMany { "#\($0)" }.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value(["#1", "#2"]), .value([]), .value(["#3"]), .completion(.finished),
            ])
    }

    @Test func worksOnAnyCollection() {
        let sets = TestSubscriber<[Int], Never>()
        Just(Set([4])).mapMany { $0 + 1 }.subscribe(sets)
        #expect(sets.values == [[5]])
        let ranges = TestSubscriber<[Int], Never>()
        Just(1...3).mapMany { $0 * 2 }.subscribe(ranges)
        #expect(ranges.values == [[2, 4, 6]])
    }

    @Test func forwardsTheFailure() {
        let upstream = PassthroughSubject<[Int], OperatorFailure>()
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        upstream.mapMany { -$0 }.subscribe(subscriber)
        upstream.send([1])
        upstream.send(completion: .failure(OperatorFailure(code: 3)))
        #expect(subscriber.events == [.subscription, .value([-1]), .completion(.failure(OperatorFailure(code: 3)))])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        [[1], [2]].publisher.mapMany { $0 }.subscribe(subscriber)
        #expect(subscriber.values == [[1]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: [1, 2], failure: OperatorFailure(code: 9)) { upstream, token in
            upstream.mapMany { value -> Int in
                _ = token
                return value
            }
            .eraseToAnyPublisher()
        }
    }
}
