// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Synchronization
import Testing

/// A subscriber that asks for one value at a time and only counts them.
private final class OneAtATime: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    var count = 0
    var finished = false

    func receive(subscription: Subscription) {
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        count += 1
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {
        finished = true
    }
}

@Suite("The subscriber contract")
struct ContractTests {
    final class Token {}

    /// Ten million values (a million under a sanitizer).
    @Test func tenMillionValuesOneAtATimeKeepAFlatStack() async {
        await offThePool {
            let count = valueCountForLongRuns(10_000_000)
            let subscriber = OneAtATime()
            Publishers.Sequence<Range<Int>, Never>(sequence: 0..<count).subscribe(subscriber)
            #expect(subscriber.count == count)
            #expect(subscriber.finished)
        }
    }

    @Test func operatorChainReleasesEverythingOnCompletion() {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let cancellable = [1, 2, 3].publisher
                .map { value -> Int in
                    _ = token
                    return value
                }
                .filter { _ in true }
                .sink { _ in _ = token }
            withExtendedLifetime(cancellable) {}
        }
        #expect(weakToken == nil)
    }

    @Test func subjectChainReleasesEverythingOnCancel() {
        weak var weakToken: Token?
        let subject = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let token = Token()
            weakToken = token
            cancellable = subject.map { value -> Int in
                _ = token
                return value
            }.sink { _ in _ = token }
        }
        #expect(weakToken != nil)
        cancellable.cancel()
        #expect(weakToken == nil)
    }

    @Test func droppedCancellableCancelsTheSubscription() {
        let upstream = TestPublisher<Int, Never>()
        do {
            _ = upstream.map { $0 }.sink { _ in }
        }
        #expect(upstream.cancelCount == 1)
    }
}
