extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from a second publisher.
    ///
    /// ```
    /// upstream:                 --1--2--3--4--|
    /// other:                    -------x
    /// drop(untilOutputFrom:):   --------3--4--|
    /// ```
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it
        /// receives an element from another publisher.
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

    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// ```
    /// upstream:                   --1--2--3--4--|
    /// other:                      -------x
    /// prefix(untilOutputFrom:):   --1--2-|
    /// ```
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an
        /// element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let inner = Inner(downstream: subscriber)
            other.subscribe(Trigger(inner: inner))
            upstream.subscribe(inner)
        }
    }
}

/// Where one side of `drop`/`prefix(untilOutputFrom:)` stands: waiting for its subscription,
/// subscribed, or done with.
private enum UntilOutputSlot {
    case waiting
    case live(Subscription)
    case closed

    var subscription: Subscription? {
        if case .live(let subscription) = self { subscription } else { nil }
    }

    /// Takes `subscription` if this side waits for one.
    mutating func accept(_ subscription: Subscription) -> Bool {
        guard case .waiting = self else { return false }
        self = .live(subscription)
        return true
    }

    /// Closes both sides; returns their subscriptions, upstream first — the order Apple's
    /// cancels them in — for the caller to cancel after its lock.
    static func closeBoth(_ upstream: inout UntilOutputSlot, _ trigger: inout UntilOutputSlot) -> [Subscription] {
        defer { (upstream, trigger) = (.closed, .closed) }
        return [upstream.subscription, trigger.subscription].compactMap { $0 }
    }

    /// What a trigger's subscription gets: one value asked for, or a cancel if not accepted.
    static func start(_ subscription: Subscription, accepted: Bool) {
        if accepted { subscription.request(.max(1)) } else { subscription.cancel() }
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
        /// cancelled (DESIGN.md, Memory), a later trigger ignored.
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
            _ = downstream  // released here, outside the lock
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
                preconditionFailure("DropUntilOutput received a value its subscriber did not request")
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
            _ = finished
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
            _ = fired
        }

        fileprivate func triggerCompleted(_ completion: Subscribers.Completion<Upstream.Failure>) {
            lock.acquire()
            if triggered || ended {
                let released = trigger.subscription
                if released != nil { trigger = .waiting }
                lock.release()
                _ = released
                return
            }
            ended = true
            let completedTrigger = trigger.subscription  // released after the lock
            trigger = .closed
            let upstream = self.upstream.subscription
            if upstream != nil { self.upstream = .closed }
            let downstream = self.downstream.take()
            lock.release()
            _ = completedTrigger
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

extension Publishers.PrefixUntilOutput {
    /// Apple's shape: the upstream's subscriber is the subscription, handed to the subscriber
    /// when the upstream's subscription arrives; no description or mirror, as Apple's.
    ///
    /// Values, the subscriber's answers and its requests (`.none` included) pass straight
    /// through. The trigger's first value cancels the upstream and finishes — even a subscriber
    /// not yet subscribed, as Apple's — and the trigger is let go, not cancelled; the trigger
    /// finishing or failing first changes nothing. An upstream completion before its
    /// subscription is dropped. A trigger firing on another thread while a value is being
    /// delivered finishes after that delivery.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let lock = Lock()
        private var downstream: Downstream?
        private var upstream = UntilOutputSlot.waiting
        private var trigger = UntilOutputSlot.waiting
        /// The thread calling the subscriber for the upstream now, and whether the trigger
        /// fired meanwhile from another thread (that thread then finishes).
        private var deliveringThread: UInt = 0
        private var finishPending = false

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        func request(_ demand: Subscribers.Demand) {
            let upstream = lock.withLock { self.upstream.subscription }
            upstream?.request(demand)
        }

        func cancel() {
            lock.acquire()
            let sides = UntilOutputSlot.closeBoth(&upstream, &trigger)
            finishPending = false
            let downstream = self.downstream.take()
            lock.release()
            for side in sides { side.cancel() }
            _ = downstream  // released here, outside the lock
        }

        // MARK: The upstream

        func receive(subscription: Subscription) {
            lock.acquire()
            guard case .waiting = upstream, let downstream else {
                lock.release()
                subscription.cancel()
                return
            }
            upstream = .live(subscription)
            let previous = claimDeliveryLocked()
            lock.release()
            downstream.receive(subscription: self)
            endDelivery(previous)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.acquire()
            guard case .live = upstream, let downstream else {
                lock.release()
                return .none
            }
            let previous = claimDeliveryLocked()
            lock.release()
            let more = downstream.receive(input)
            endDelivery(previous)
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.acquire()
            let wasLive: Bool
            switch upstream {
            case .closed:
                lock.release()
                return
            case .waiting: wasLive = false
            case .live: wasLive = true
            }
            let finished = upstream.subscription  // released after the lock
            upstream = .closed
            let trigger = self.trigger.subscription
            self.trigger = .closed
            let downstream = self.downstream.take()
            lock.release()
            _ = finished
            trigger?.cancel()
            if wasLive { downstream?.receive(completion: completion) }
        }

        private func claimDeliveryLocked() -> UInt {
            let previous = deliveringThread
            deliveringThread = currentThreadID()
            return previous
        }

        /// Gives up the delivering role; finishes if the trigger fired meanwhile on another
        /// thread.
        private func endDelivery(_ previous: UInt) {
            lock.acquire()
            deliveringThread = previous
            guard previous == 0, finishPending else {
                lock.release()
                return
            }
            finishPending = false
            let downstream = self.downstream.take()
            lock.release()
            downstream?.receive(completion: .finished)
        }

        // MARK: The trigger

        fileprivate func triggerSubscribed(_ subscription: Subscription) {
            let accepted = lock.withLock { trigger.accept(subscription) }
            UntilOutputSlot.start(subscription, accepted: accepted)
        }

        fileprivate func triggerFired() {
            let me = currentThreadID()
            lock.acquire()
            guard case .live(let fired) = trigger else {
                lock.release()
                return
            }
            trigger = .closed  // let go, not cancelled, as Apple's
            let upstream = self.upstream.subscription
            self.upstream = .closed
            if deliveringThread != 0 && deliveringThread != me {
                finishPending = true
                lock.release()
                upstream?.cancel()
                _ = fired
                return
            }
            let downstream = self.downstream.take()
            lock.release()
            upstream?.cancel()
            _ = fired
            downstream?.receive(completion: .finished)
        }

        fileprivate func triggerCompleted() {
            lock.acquire()
            let released = trigger.subscription  // let go, not cancelled
            trigger = .closed
            lock.release()
            _ = released
        }
    }

    /// The trigger's subscriber: it shares the subscription's combine identifier; no
    /// description or mirror, as Apple's.
    struct Trigger<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Other.Output
        typealias Failure = Other.Failure

        let inner: Inner<Downstream>

        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        func receive(subscription: Subscription) { inner.triggerSubscribed(subscription) }

        func receive(_ input: Other.Output) -> Subscribers.Demand {
            inner.triggerFired()
            return .none
        }

        func receive(completion: Subscribers.Completion<Other.Failure>) { inner.triggerCompleted() }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a
    /// second publisher.
    ///
    /// ```swift
    /// readings.drop(untilOutputFrom: startButtonTaps)
    /// ```
    ///
    /// As Apple's: each value dropped before the trigger fires uses up one unit of the
    /// subscriber's demand (an upstream sending beyond it traps); if the second publisher
    /// completes before any element, the result completes with it and cancels the upstream.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    /// Republishes elements until another publisher emits an element.
    ///
    /// ```swift
    /// ticks.prefix(untilOutputFrom: stopButtonTaps)
    /// ```
    ///
    /// As Apple's: the other publisher's first element cancels the upstream and finishes; its
    /// completion without an element changes nothing.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
