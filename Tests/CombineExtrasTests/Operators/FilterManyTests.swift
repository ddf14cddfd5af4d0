// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("filterMany")
struct FilterManyTests {
    @Test func keepsTheMatchingElementsOfEachCollection() {
        let subscriber = TestSubscriber<[Int], Never>()
        [[1, 2, 3, 4], [5], []].publisher.filterMany { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value([2, 4]), .value([]), .value([]), .completion(.finished)])
    }

    @Test func forwardsTheFailure() {
        let upstream = PassthroughSubject<[Int], OperatorFailure>()
        let subscriber = TestSubscriber<[Int], OperatorFailure>()
        upstream.filterMany { $0 > 1 }.subscribe(subscriber)
        upstream.send([1, 2])
        upstream.send(completion: .failure(OperatorFailure(code: 3)))
        #expect(subscriber.events == [.subscription, .value([2]), .completion(.failure(OperatorFailure(code: 3)))])
    }

    @Test func boundedDemandIsNeverExceeded() {
        let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
        [[1], [2]].publisher.filterMany { _ in true }.subscribe(subscriber)
        #expect(subscriber.values == [[1]])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func contract() {
        expectOperatorContract(sending: [1, 2], failure: OperatorFailure(code: 9)) { upstream, token in
            upstream.filterMany { _ in
                _ = token
                return true
            }
        }
    }
}
