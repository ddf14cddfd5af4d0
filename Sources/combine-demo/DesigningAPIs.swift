// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §6): `Future` runs at once,
/// `Deferred { Future }` per subscriber; `retry` re-subscribes to a deferred authorisation;
/// a long-running query behind a subject, started and stopped by `handleEvents`, chained
/// with `flatMap`.
final class HealthStore {
    private var attempts = 0
    private var query: PassthroughSubject<[Double], Error>?

    func authorize() -> AnyPublisher<Bool, Error> {
        Deferred {
            Future { [self] promise in
                attempts += 1
                print("  authorize attempt \(attempts)")
                if attempts < 3 {
                    promise(.failure(URLError(.timedOut)))
                } else {
                    promise(.success(true))
                }
            }
        }
        .eraseToAnyPublisher()
    }

    func heartRate() -> AnyPublisher<[Double], Error> {
        let subject = PassthroughSubject<[Double], Error>()
        return subject.handleEvents(
            receiveSubscription: { [self] _ in
                print("  query started")
                query = subject
            },
            receiveCancel: { [self] in
                print("  query stopped")
                query = nil
            }
        )
        .eraseToAnyPublisher()
    }

    /// The long-running callback query delivering samples.
    func deliver(_ samples: [Double]) {
        query?.send(samples)
    }
}

func designingAPIs() {
    print("- Future is eager, Deferred is lazy:")
    let eager = Future<Int, Never> { promise in
        print("  eager Future: closure runs now")
        promise(.success(1))
    }
    let lazy = Deferred {
        Future<Int, Never> { promise in
            print("  deferred Future: closure runs on subscription")
            promise(.success(2))
        }
    }
    print("  (both created)")
    _ = eager.sink { print("  eager value \($0)") }
    _ = lazy.sink { print("  lazy value \($0)") }
    _ = lazy.sink { print("  lazy value again \($0)") }

    print("- retry(3) re-subscribes to the deferred authorisation:")
    let health = HealthStore()
    var cancellables = Set<AnyCancellable>()
    health.authorize().retry(3).replaceError(with: false)
        .sink { print("  authorized: \($0)") }
        .store(in: &cancellables)

    print("- authorisation, then the heart-rate query:")
    health.authorize()
        .flatMap { authorized in
            authorized ? health.heartRate() : Empty().eraseToAnyPublisher()
        }
        .sink(receiveCompletion: { print("  completion: \($0)") }, receiveValue: { print("  heart rate: \($0)") })
        .store(in: &cancellables)
    health.deliver([62, 64])
    health.deliver([70])
    cancellables.removeAll()
}
