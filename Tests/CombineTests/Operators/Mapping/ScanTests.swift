// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

private func failure<Output>(of subscriber: TestSubscriber<Output, any Error>) -> Failure? {
    guard case .failure(let error) = subscriber.completion else { return nil }
    return error as? Failure
}

@Suite("scan, tryScan")
struct ScanTests {
    @Test func scanPublishesEveryPartialResult() {
        let subscriber = TestSubscriber<Int, Never>()
        (1...4).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1, 3, 6, 10])
        #expect(subscriber.completion == .finished)
    }

    @Test func tryScanFailsAndCancelsUpstream() {
        let upstream = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryScan(0) { total, value in
            guard value > 0 else { throw Failure(code: value) }
            return total + value
        }.subscribe(subscriber)
        upstream.send(2)
        upstream.send(-1)
        upstream.send(5)
        #expect(subscriber.values == [2])
        #expect(failure(of: subscriber) == Failure(code: -1))
        #expect(upstream.cancelCount == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func scanHonoursDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...4).publisher.scan(0, +).subscribe(subscriber)
        #expect(subscriber.values == [1, 3])
        subscriber.request(.max(2))
        #expect(subscriber.values == [1, 3, 6, 10])
    }
}
