// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that gathers upstream elements into arrays of a fixed size and sends each
    /// array once it is full.
    ///
    /// ```
    /// upstream:    --1--2--3--4--5--|
    /// collect(2):  -----[1,2]-[3,4]-[5]|
    /// ```
    ///
    /// Each unit of the subscriber's demand asks upstream for `count` elements. When the
    /// upstream finishes, a partial group is published; on failure it is dropped.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// Each element it sends is an array of upstream elements.
        public typealias Output = [Upstream.Output]
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// How many elements make a full array; the last array may hold fewer.
        public let count: Int

        /// Creates a publisher that sends the upstream's elements in arrays of `count`.
        ///
        /// - Precondition: `count` is greater than zero.
        public init(upstream: Upstream, count: Int) {
            apiPrecondition(count > 0, "collect(_:): the count must be greater than zero")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }

        /// Apple's edges: values before the subscription are dropped, a cancel before it is
        /// ignored (the subscription that comes later is taken).
        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
        where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
            typealias Input = Upstream.Output
            typealias Failure = Upstream.Failure

            private let lock = Lock()
            private var downstream: Downstream?
            private var upstream: Subscription?
            private var group: [Upstream.Output] = []
            private let count: Int

            init(downstream: Downstream, count: Int) {
                self.downstream = downstream
                self.count = count
            }

            var description: String { "CollectByCount" }
            var playgroundDescription: Any { description }

            var customMirror: Mirror {
                lock.acquire()
                let children: [Mirror.Child] = [
                    ("downstream", downstream as Any), ("upstreamSubscription", upstream as Any), ("buffer", group),
                    ("count", count),
                ]
                lock.release()
                return Mirror(self, children: children)
            }

            func receive(subscription: Subscription) {
                let target: Downstream? = lock.withLock {
                    guard upstream == nil, let downstream else { return nil }
                    upstream = subscription
                    return downstream
                }
                guard let target else {
                    subscription.cancel()
                    return
                }
                target.receive(subscription: self)
            }

            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                let full: (Downstream, [Upstream.Output])? = lock.withLock {
                    guard upstream != nil, let downstream else { return nil }
                    group.append(input)
                    guard group.count == count else { return nil }
                    defer { group = [] }
                    return (downstream, group)
                }
                guard let (downstream, group) = full else { return .none }
                return downstream.receive(group) * count
            }

            func receive(completion: Subscribers.Completion<Upstream.Failure>) {
                lock.acquire()
                let target = downstream.take()
                let upstream = self.upstream.take()
                let partial = group
                group = []
                lock.release()
                withExtendedLifetime(upstream) {}  // released here, outside the lock
                guard let target else { return }
                if case .finished = completion, !partial.isEmpty { _ = target.receive(partial) }
                target.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                demand.assertNonZero()
                lock.withLock { upstream }?.request(demand * count)
            }

            func cancel() {
                lock.acquire()
                guard upstream != nil || downstream == nil else {
                    lock.release()
                    return
                }
                let downstream = self.downstream.take()
                let upstream = self.upstream.take()
                let group = self.group
                self.group = []
                lock.release()
                upstream?.cancel()
                // Released here, outside the lock: the subscriber's deinit may cancel again.
                withExtendedLifetime(downstream) {}
                withExtendedLifetime(group) {}
            }
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects elements into arrays of up to the specified number and publishes each array
    /// as soon as it is full.
    ///
    /// ![A marble diagram of collect(_:), drawn from a run of it](marble-collect-count)
    ///
    /// When the upstream finishes, a partly filled array is published before `.finished`
    /// (nothing extra if it is empty); when the upstream fails, the partly filled array is
    /// discarded and the failure passed on. Demand is counted in arrays: each array the
    /// subscriber requests asks the upstream for `count` elements.
    ///
    /// ```swift
    /// let cancellable = (1...5).publisher
    ///     .collect(2)
    ///     .sink { print($0) }
    /// // Prints: [1, 2], [3, 4], [5]
    /// ```
    ///
    /// - Parameter count: The largest number of elements in one array. It must be greater than
    ///   zero: a smaller value traps when the publisher is created.
    /// - Returns: A `Publishers.CollectByCount` publisher that publishes arrays of at most
    ///   `count` elements.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
