// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// A publisher driven by the test: it hands each subscriber a subscription that records the
/// demand requested and the cancellations, and lets the test send values and completions
/// straight to the subscribers — within their demand or not, to check how an operator
/// copes with a misbehaving upstream.
///
/// ```swift
/// let upstream = TestPublisher<Int, Never>()
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// upstream.subscribe(subscriber)
/// #expect(upstream.requests == [.max(2)])
/// upstream.send(1)
/// subscriber.cancel()
/// #expect(upstream.cancelCount == 1)
/// ```
public final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let lock = Lock()
    private var downstreams: [(subscription: Subscription, subscriber: AnySubscriber<Output, Failure>)] = []
    private var requestLog: [Subscribers.Demand] = []
    private var cancels = 0
    private var subscribes = 0

    /// Creates a test publisher.
    public init() {}

    /// Every demand requested through any of its subscriptions, in order.
    public var requests: [Subscribers.Demand] { lock.withLock { requestLog } }

    /// The sum of the demand requested so far.
    public var totalDemand: Subscribers.Demand { requests.reduce(.none, +) }

    /// How many times any of its subscriptions was cancelled.
    public var cancelCount: Int { lock.withLock { cancels } }

    /// How many subscribers it has received.
    public var subscriptionCount: Int { lock.withLock { subscribes } }

    /// Whether a subscriber is attached and not cancelled.
    public var hasSubscriber: Bool { lock.withLock { !downstreams.isEmpty } }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let subscription = Subscription(publisher: self)
        let erased = AnySubscriber(subscriber)
        lock.withLock {
            subscribes += 1
            downstreams.append((subscription, erased))
        }
        subscriber.receive(subscription: subscription)
    }

    /// Sends a value to every attached subscriber, whatever their demand.
    /// - Returns: The additional demand the last subscriber returned.
    @discardableResult
    public func send(_ value: Output) -> Subscribers.Demand {
        var demand = Subscribers.Demand.none
        for downstream in lock.withLock({ downstreams }) {
            demand = downstream.subscriber.receive(value)
        }
        return demand
    }

    /// Sends a completion to every attached subscriber and detaches them.
    public func send(completion: Subscribers.Completion<Failure>) {
        let targets: [AnySubscriber<Output, Failure>] = lock.withLock {
            defer { downstreams = [] }
            return downstreams.map(\.subscriber)
        }
        for downstream in targets {
            downstream.receive(completion: completion)
        }
    }

    fileprivate func record(_ demand: Subscribers.Demand) {
        lock.withLock { requestLog.append(demand) }
    }

    fileprivate func cancelled(_ subscription: Subscription) {
        // The subscriber is released after the lock: its deinit may cancel again.
        let detached: AnySubscriber<Output, Failure>? = lock.withLock {
            cancels += 1
            return downstreams.firstIndex { $0.subscription === subscription }.map {
                downstreams.remove(at: $0).subscriber
            }
        }
        withExtendedLifetime(detached) {}
    }

    /// The subscription it hands out.
    public final class Subscription: Combine.Subscription, CustomStringConvertible, @unchecked Sendable {
        private weak var publisher: TestPublisher?

        fileprivate init(publisher: TestPublisher) {
            self.publisher = publisher
        }

        /// A name for the subscription in logs: `TestPublisher`.
        public var description: String { "TestPublisher" }

        /// Records `demand` in the publisher's `requests`.
        public func request(_ demand: Subscribers.Demand) {
            publisher?.record(demand)
        }

        /// Records the cancellation and detaches the subscriber from the publisher.
        public func cancel() {
            publisher?.cancelled(self)
        }
    }
}
