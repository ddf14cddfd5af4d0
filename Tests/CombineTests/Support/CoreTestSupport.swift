// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation
@_exported import TestSupport
import Testing

/// A publisher that hands each subscriber a ``ProbeSubscription`` and keeps only a weak
/// reference to it, so a test can tell whether the subscriber keeps its subscription alive.
final class ProbePublisher<Output>: Publisher {
    typealias Failure = Never

    private(set) weak var subscription: ProbeSubscription<Output>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let subscription = ProbeSubscription(downstream: AnySubscriber(subscriber))
        self.subscription = subscription
        subscriber.receive(subscription: subscription)
    }
}

/// The subscription of ``ProbePublisher``: it holds its subscriber until it finishes or is
/// cancelled, and records the demand requested and the cancellations.
final class ProbeSubscription<Output>: Subscription {
    private var downstream: AnySubscriber<Output, Never>?
    private(set) var requests: [Subscribers.Demand] = []
    private(set) var cancelCount = 0

    init(downstream: AnySubscriber<Output, Never>) {
        self.downstream = downstream
    }

    func request(_ demand: Subscribers.Demand) {
        requests.append(demand)
    }

    func cancel() {
        cancelCount += 1
        downstream = nil
    }

    /// Sends a value to the subscriber and returns the demand it answered with.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        downstream?.receive(value) ?? .none
    }

    func finish() {
        let downstream = self.downstream
        self.downstream = nil
        downstream?.receive(completion: .finished)
    }
}

/// The synchronous sources of the core, each publishing ``values`` then finishing, so the
/// contract and release tests can run over all of them.
enum SyncSource: String, CaseIterable, CustomTestStringConvertible {
    case just
    case sequence
    case record
    case optional
    case result
    case fulfilledFuture
    case deferredJust

    var testDescription: String { rawValue }

    var values: [Int] {
        switch self {
        case .sequence, .record: [1, 2, 3, 4, 5]
        case .just, .optional, .result, .fulfilledFuture, .deferredJust: [1]
        }
    }

    func makePublisher() -> AnyPublisher<Int, Never> {
        switch self {
        case .just: Just(1).eraseToAnyPublisher()
        case .sequence: [1, 2, 3, 4, 5].publisher.eraseToAnyPublisher()
        case .record: Record(output: [1, 2, 3, 4, 5], completion: .finished).eraseToAnyPublisher()
        case .optional: Optional.Publisher(1).eraseToAnyPublisher()
        case .result: Result<Int, Never>.Publisher(1).eraseToAnyPublisher()
        case .fulfilledFuture: Future<Int, Never> { promise in promise(.success(1)) }.eraseToAnyPublisher()
        case .deferredJust: Deferred { Just(1) }.eraseToAnyPublisher()
        }
    }
}

/// The text a child process wrote to standard error, to check a trap's message.
func standardErrorText(of result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}
