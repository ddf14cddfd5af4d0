// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("catch, tryCatch, retry")
struct RecoveryTests {
    @Test func catchReplacesTheFailedUpstream() {
        let subscriber = TestSubscriber<Int, Never>()
        Fail<Int, Failure>(error: Failure(code: 1)).catch { _ in [7, 8].publisher }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .value(8), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func outstandingDemandCarriesOverToTheReplacement() {
        let upstream = TestPublisher<Int, Failure>()
        let replacement = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        upstream.catch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.requests == [.max(3)])
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 1)))
        #expect(replacement.requests == [.max(2)])
        replacement.send(2)
        #expect(subscriber.values == [1, 2])
    }

    @Test func cancelReachesTheCurrentSource() {
        let upstream = TestPublisher<Int, Failure>()
        let replacement = TestPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, Never>()
        upstream.catch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(Failure(code: 1)))
        subscriber.cancel()
        #expect(upstream.cancelCount == 0)
        #expect(replacement.cancelCount == 1)
    }

    @Test func tryCatchFailsWithTheThrownError() {
        let subscriber = TestSubscriber<Int, any Error>()
        Fail<Int, Failure>(error: Failure(code: 1)).tryCatch { error -> Just<Int> in
            throw Failure(code: error.code + 1)
        }.subscribe(subscriber)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error as? Failure == Failure(code: 2))
    }

    @Test func tryCatchSwitchesWhenTheHandlerReturns() {
        let subscriber = TestSubscriber<Int, any Error>()
        Fail<Int, Failure>(error: Failure(code: 1)).tryCatch { _ in Just(5) }.subscribe(subscriber)
        #expect(subscriber.values == [5])
    }

    @Test func retryResubscribesAndRunsDeferredWorkAgain() {
        // The team's scenarios document (docs/SCENARIOS.md §6): retry re-subscribes to a
        // Deferred upstream, so the work runs again.
        var attempts = 0
        let authorize = Deferred {
            Future<Bool, Failure> { promise in
                attempts += 1
                promise(attempts < 3 ? .failure(Failure(code: attempts)) : .success(true))
            }
        }
        var results: [Bool] = []
        let cancellable = authorize.retry(3).replaceError(with: false).sink { results.append($0) }
        #expect(attempts == 3)
        #expect(results == [true])
        cancellable.cancel()
    }

    @Test func retryGivesUpAfterTheLimit() {
        var attempts = 0
        let failing = Deferred { () -> Fail<Int, Failure> in
            attempts += 1
            return Fail(error: Failure(code: attempts))
        }
        let subscriber = TestSubscriber<Int, Failure>()
        failing.retry(2).subscribe(subscriber)
        #expect(attempts == 3)
        #expect(subscriber.events == [.subscription, .completion(.failure(Failure(code: 3)))])
    }

    @Test func replaceErrorPublishesTheReplacementWhenDemanded() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        upstream.replaceError(with: 0).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 1)))
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1), .value(0), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func replaceErrorPassesFinishedThrough() {
        let subscriber = TestSubscriber<Int, Never>()
        Just(1).setFailureType(to: Failure.self).replaceError(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1])
        #expect(subscriber.completion == .finished)
    }

    @Test func replaceEmptyOnlyReplacesAnEmptyStream() {
        var results: [Int] = []
        _ = Empty<Int, Never>().replaceEmpty(with: 9).sink { results.append($0) }
        _ = [1].publisher.replaceEmpty(with: 9).sink { results.append($0) }
        #expect(results == [9, 1])
        let failing = TestSubscriber<Int, Failure>()
        Fail<Int, Failure>(error: Failure(code: 3)).replaceEmpty(with: 9).subscribe(failing)
        #expect(failing.events == [.subscription, .completion(.failure(Failure(code: 3)))])
    }
}
