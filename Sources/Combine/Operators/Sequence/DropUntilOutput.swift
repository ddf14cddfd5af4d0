// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that discards the upstream's elements until another publisher produces its
    /// first element, then republishes the upstream's elements.
    ///
    /// ```
    /// upstream:                 --1--2--3--4--|
    /// other:                    -------x
    /// drop(untilOutputFrom:):   --------3--4--|
    /// ```
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The publisher whose first element switches from discarding to republishing.
        public let other: Other

        /// Creates a publisher that starts republishing the upstream's elements once `other`
        /// has produced an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Other.Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.subscribe(Trigger(inner: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput {
    /// Apple's shape: the upstream's subscriber is the subscription the subscriber holds, and
    /// the trigger's subscriber shares its combine identifier.
    ///
    /// Before the trigger fires, every upstream value is dropped and uses up one unit of the
    /// subscriber's demand (a value nobody asked for traps, as Apple's); after it, values go
    /// straight to the subscriber, whose answer is the upstream's. A fired trigger is let go,
    /// not cancelled; its finishing or failing before it fired ends the stream (cancelling the
    /// upstream). Requests, `.none` included, go upstream as they come.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let lock = Lock()
        /// `nil` once a completion went out or the subscriber cancelled.
        private var downstream: Downstream?
        private var upstream = UntilOutputSlot.waiting
        private var trigger = UntilOutputSlot.waiting
        private var triggered = false
        /// What the subscriber asked for minus the values dropped before the trigger fired.
        private var pending = Subscribers.Demand.none
        /// A completion went out or the subscriber cancelled: a later upstream subscription is
        /// cancelled (docs/DESIGN.md, Memory), a later trigger ignored.
        private var ended = false

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        var description: String { "DropUntilOutput" }
        var customMirror: Mirror { Mirror(self, children: [:]) }
        var playgroundDescription: Any { description }

        func request(_ demand: Subscribers.Demand) {
            lock.acquire()
            guard downstream != nil else {
                lock.release()
                return
            }
            pending += demand
            let upstream = self.upstream.subscription
            lock.release()
            upstream?.request(demand)
        }

        func cancel() {
            lock.acquire()
            guard !ended || upstream.subscription != nil || trigger.subscription != nil else {
                lock.release()
                return
            }
            ended = true
            let sides = UntilOutputSlot.closeBoth(&upstream, &trigger)
            let downstream = self.downstream.take()
            lock.release()
            for side in sides { side.cancel() }
            withExtendedLifetime(downstream) {}  // released here, outside the lock
        }

        // MARK: The upstream

        func receive(subscription: Subscription) {
            lock.acquire()
            guard case .waiting = upstream, !ended else {
                lock.release()
                subscription.cancel()
                return
            }
            upstream = .live(subscription)
            let demand = pending
            lock.release()
            if demand > 0 { subscription.request(demand) }
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.acquire()
            if case .closed = upstream {
                lock.release()
                return .none
            }
            if triggered {
                let downstream = self.downstream
                lock.release()
                return downstream?.receive(input) ?? .none
            }
            guard pending > 0 else {
                lock.release()
                apiViolation("DropUntilOutput received a value its subscriber did not request")
            }
            pending -= 1
            lock.release()
            return .none
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.acquire()
            if case .closed = upstream {
                lock.release()
                return
            }
            let finished = upstream.subscription  // released after the lock
            upstream = .closed
            ended = true
            let trigger = self.trigger.subscription
            self.trigger = .closed
            let downstream = self.downstream.take()
            lock.release()
            withExtendedLifetime(finished) {}
            trigger?.cancel()
            downstream?.receive(completion: completion)
        }

        // MARK: The trigger

        fileprivate func triggerSubscribed(_ subscription: Subscription) {
            let accepted = lock.withLock { !ended && trigger.accept(subscription) }
            UntilOutputSlot.start(subscription, accepted: accepted)
        }

        fileprivate func triggerFired() {
            lock.acquire()
            guard !ended else {
                lock.release()
                return
            }
            triggered = true
            let fired = trigger.subscription  // let go, not cancelled, as Apple's
            if fired != nil { trigger = .waiting }
            lock.release()
            withExtendedLifetime(fired) {}
        }

        fileprivate func triggerCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
            lock.acquire()
            if triggered || ended {
                let released = trigger.subscription
                if released != nil { trigger = .waiting }
                lock.release()
                withExtendedLifetime(released) {}
                return
            }
            ended = true
            let completedTrigger = trigger.subscription  // released after the lock
            trigger = .closed
            let upstream = self.upstream.subscription
            if upstream != nil { self.upstream = .closed }
            let downstream = self.downstream.take()
            lock.release()
            withExtendedLifetime(completedTrigger) {}
            upstream?.cancel()
            downstream?.receive(completion: completion)
        }
    }

    /// The trigger's subscriber: it shares the subscription's combine identifier.
    struct Trigger<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Other.Output
        typealias Failure = Other.Failure

        let inner: Inner<Downstream>

        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }
        var description: String { "DropUntilOutput" }
        var customMirror: Mirror { Mirror(self, children: [:]) }
        var playgroundDescription: Any { description }

        func receive(subscription: Subscription) { inner.triggerSubscribed(subscription) }

        func receive(_ input: Other.Output) -> Subscribers.Demand {
            inner.triggerFired()
            return .none
        }

        func receive(completion: Subscribers.Completion<Other.Failure>) { inner.triggerCompleted(completion) }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Discards the upstream's elements until `publisher` produces an element, and republishes
    /// them from then on.
    ///
    /// ![A marble diagram of drop(untilOutputFrom:), drawn from a run of it](marble-drop-untilOutputFrom)
    ///
    /// The operator asks `publisher` for a single element. Until it arrives, upstream elements
    /// are discarded; from then on they are republished, and `publisher` is no longer listened
    /// to (it is let go, not cancelled). If `publisher` finishes or fails before producing an
    /// element, the result completes the same way and the upstream is cancelled. The
    /// subscriber's requests go straight upstream, and as in Apple's Combine each element
    /// discarded before the trigger uses up one unit of that demand (an upstream sending more
    /// than was requested traps).
    ///
    /// ```swift
    /// let readings = PassthroughSubject<Int, Never>()
    /// let start = PassthroughSubject<Void, Never>()
    /// let cancellable = readings
    ///     .drop(untilOutputFrom: start)
    ///     .sink { print($0) }
    /// readings.send(1)
    /// start.send()
    /// readings.send(2)
    /// readings.send(3)
    /// // Prints: 2, 3
    /// ```
    ///
    /// - Parameter publisher: The publisher whose first element starts the republishing; its
    ///   failure type must match this publisher's.
    /// - Returns: A `Publishers.DropUntilOutput` publisher that republishes the upstream's
    ///   elements once `publisher` has produced one.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
