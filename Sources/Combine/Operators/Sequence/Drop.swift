// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that discards the first `count` upstream elements and republishes every one
    /// after them.
    ///
    /// ```
    /// upstream:      --1--2--3--4--|
    /// dropFirst(2):  --------3--4--|
    /// ```
    ///
    /// As Apple's does, it hands the subscriber its subscription before subscribing upstream,
    /// and asks upstream for `count` more than the subscriber asked for by then, so the
    /// dropped elements don't use up the subscriber's demand.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that skips the upstream's first `count` elements and passes on
        /// the rest.
        ///
        /// - Precondition: `count` is not negative, checked when a subscriber attaches (as
        ///   Apple's does).
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }

        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline typealias Input = Output

            @usableFromInline let lock = Lock()
            /// Released on completion and on cancel (docs/DESIGN.md, Memory).
            @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
            @usableFromInline @exclusivity(unchecked) var upstream: Subscription?
            /// Asked for by the subscriber before the upstream subscription came.
            @usableFromInline @exclusivity(unchecked) var pending = Subscribers.Demand.none
            /// Values still to drop. Only `receive(_:)` touches it, one value at a time.
            @usableFromInline @exclusivity(unchecked) var remaining: Int
            @usableFromInline @exclusivity(unchecked) var done = false

            @usableFromInline var description: String { "Drop" }
            @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
            @usableFromInline var playgroundDescription: Any { description }

            @inlinable
            init(downstream: Downstream, count: Int) {
                self.downstream = downstream
                self.remaining = count
            }

            @usableFromInline
            func receive(subscription: Subscription) {
                lock.acquire()
                guard upstream == nil, !done else {
                    lock.release()
                    subscription.cancel()
                    return
                }
                apiPrecondition(remaining >= 0, "dropFirst(_:): the count must not be negative")
                upstream = subscription
                let demand = pending + remaining
                pending = .none
                lock.release()
                if demand != .none { subscription.request(demand) }
            }

            @inlinable
            func receive(_ input: Output) -> Subscribers.Demand {
                if remaining > 0 {
                    remaining -= 1
                    return .none
                }
                guard let downstream = lock.withLock({ done ? nil : self.downstream }) else { return .none }
                return downstream.receive(input)
            }

            @usableFromInline
            func receive(completion: Subscribers.Completion<Failure>) {
                lock.acquire()
                let downstream = done ? nil : self.downstream.take()
                done = true
                let upstream = self.upstream.take()
                lock.release()
                withExtendedLifetime(upstream) {}  // released here, outside the lock
                downstream?.receive(completion: completion)
            }

            @usableFromInline
            func request(_ demand: Subscribers.Demand) {
                demand.assertNonZero()
                lock.acquire()
                guard let upstream, !done else {
                    if !done { pending += demand }
                    lock.release()
                    return
                }
                lock.release()
                upstream.request(demand)
            }

            @usableFromInline
            func cancel() {
                // A cancel before the upstream subscription is final too: that subscription is
                // cancelled when it comes (Apple's takes it and lets values through).
                lock.acquire()
                done = true
                let upstream = self.upstream.take()
                let downstream = self.downstream.take()
                lock.release()
                upstream?.cancel()
                withExtendedLifetime(downstream) {}  // released here, outside the lock
            }
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Skips the first `count` elements of the upstream and republishes all the ones after them.
    ///
    /// ![A marble diagram of dropFirst(_:), drawn from a run of it](marble-dropFirst)
    ///
    /// The first `count` elements are discarded and every later one is republished; the
    /// upstream's completion is passed on whenever it comes. The discarded elements don't use
    /// up the subscriber's demand: when the upstream's subscription arrives, the operator asks
    /// it for `count` elements more than the subscriber has requested so far (later requests
    /// go straight upstream). It hands the subscriber its subscription before subscribing to
    /// the upstream.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher
    ///     .dropFirst(2)
    ///     .sink { print($0) }
    /// // Prints: 3, 4
    /// ```
    ///
    /// - Parameter count: The number of elements to omit; `1` if not given. A negative count
    ///   traps when the upstream's subscription arrives.
    /// - Returns: A `Publishers.Drop` publisher that republishes the elements after the first
    ///   `count`.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
