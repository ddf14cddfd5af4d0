// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// A subscriber for tests: it records every event in order, lets the test decide the demand,
/// and checks the subscriber contract as events arrive.
///
/// ```swift
/// let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
/// [1, 2, 3].publisher.subscribe(subscriber)
/// #expect(subscriber.values == [1, 2])
/// subscriber.request(.max(1))
/// #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
/// ```
///
/// Violations of the contract — a second subscription, a value beyond the demand, anything
/// after the completion, two calls at once — are recorded in ``violations`` rather than
/// trapping, so a test can assert that there are none. All members are thread-safe.
public final class TestSubscriber<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    @unchecked Sendable
{
    /// One thing the subscriber received.
    public enum Event {
        /// The subscription arrived.
        case subscription
        /// A value arrived.
        case value(Input)
        /// The completion arrived: `.finished` or `.failure`.
        case completion(Subscribers.Completion<Failure>)
    }

    private let lock = Lock()
    private var recorded: [Event] = []
    private var subscriptionStorage: Subscription?
    private var outstanding = Subscribers.Demand.none
    private var completed = false
    /// The thread calling in now (`currentThreadID()`, the package's portable thread identity).
    private var callingThread: UInt?
    private var callDepth = 0
    private var violationList: [String] = []
    private let initialDemand: Subscribers.Demand
    private let onValue: @Sendable (Input) -> Subscribers.Demand
    private let onSubscription: (@Sendable (Subscription) -> Void)?
    private let onCompletion: (@Sendable (Subscribers.Completion<Failure>) -> Void)?

    /// Creates a test subscriber.
    ///
    /// - Parameters:
    ///   - initialDemand: Requested on subscription unless `.none`.
    ///   - onSubscription: Called after the subscription is recorded and the initial demand
    ///     requested.
    ///   - onValue: Called for each value (after recording it); returns the additional demand.
    ///   - onCompletion: Called after the completion is recorded.
    public init(
        initialDemand: Subscribers.Demand = .unlimited,
        onSubscription: (@Sendable (Subscription) -> Void)? = nil,
        onValue: @escaping @Sendable (Input) -> Subscribers.Demand = { _ in .none },
        onCompletion: (@Sendable (Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        self.initialDemand = initialDemand
        self.onSubscription = onSubscription
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    /// A name for the subscriber in logs: `TestSubscriber`.
    public var description: String { "TestSubscriber" }

    // MARK: What was received

    /// Every event, in the order received.
    public var events: [Event] { lock.withLock { recorded } }

    /// The values received, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completion, if one arrived.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in events { return completion }
        return nil
    }

    /// The number of subscriptions received (1 when the publisher behaves).
    public var subscriptionCount: Int {
        events.count { if case .subscription = $0 { true } else { false } }
    }

    /// The subscription received, if any.
    public var subscription: Subscription? { lock.withLock { subscriptionStorage } }

    /// The demand requested and not yet used up.
    public var outstandingDemand: Subscribers.Demand { lock.withLock { outstanding } }

    /// Descriptions of every breach of the subscriber contract seen so far.
    public var violations: [String] { lock.withLock { violationList } }

    // MARK: Controlling demand

    /// Requests more values through the subscription.
    public func request(_ demand: Subscribers.Demand) {
        let subscription: Subscription? = lock.withLock {
            outstanding += demand
            return subscriptionStorage
        }
        subscription?.request(demand)
    }

    /// Cancels the subscription.
    public func cancel() {
        let subscription = lock.withLock { subscriptionStorage }
        subscription?.cancel()
    }

    // MARK: Subscriber

    /// Records the subscription and requests the initial demand, then calls `onSubscription`.
    public func receive(subscription: Subscription) {
        enter("receive(subscription:)")
        lock.withLock {
            if subscriptionStorage != nil { violationList.append("received a second subscription") }
            if completed { violationList.append("received a subscription after the completion") }
            recorded.append(.subscription)
            subscriptionStorage = subscriptionStorage ?? subscription
            if initialDemand > 0 { outstanding += initialDemand }
        }
        defer { leave() }
        if initialDemand > 0 { subscription.request(initialDemand) }
        onSubscription?(subscription)
    }

    /// Records the value, then returns the demand `onValue` gives for it.
    public func receive(_ input: Input) -> Subscribers.Demand {
        enter("receive(_:)")
        lock.withLock {
            if subscriptionStorage == nil { violationList.append("received a value before the subscription") }
            if completed { violationList.append("received a value after the completion") }
            if outstanding == .none {
                violationList.append("received a value beyond the demand")
            } else {
                outstanding -= 1
            }
            recorded.append(.value(input))
        }
        defer { leave() }
        let more = onValue(input)
        lock.withLock { outstanding += more }
        return more
    }

    /// Records the completion, then calls `onCompletion`.
    public func receive(completion: Subscribers.Completion<Failure>) {
        enter("receive(completion:)")
        lock.withLock {
            if completed { violationList.append("received a second completion") }
            completed = true
            recorded.append(.completion(completion))
        }
        defer { leave() }
        onCompletion?(completion)
    }

    // Calls from two threads overlapping in time break the rule that calls into one
    // subscriber are serialised. A call nested in another on the same thread (a re-entrant
    // send from inside `receive`) is allowed.
    private func enter(_ call: String) {
        let me = currentThreadID()
        lock.withLock {
            if callDepth > 0, let thread = callingThread, thread != me {
                violationList.append("\(call) overlapped a call on another thread")
            }
            callingThread = me
            callDepth += 1
        }
    }

    private func leave() {
        lock.withLock {
            callDepth -= 1
            if callDepth == 0 { callingThread = nil }
        }
    }
}

extension TestSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {
    /// Returns whether two events are the same kind with equal contents.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.subscription, .subscription): true
        case (.value(let a), .value(let b)): a == b
        case (.completion(let a), .completion(let b)): a == b
        default: false
        }
    }
}

extension TestSubscriber.Event: CustomStringConvertible {
    /// The event as it reads in test output: `subscription`, `value(1)`, `finished` or
    /// `failure(error)`.
    public var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }
}
