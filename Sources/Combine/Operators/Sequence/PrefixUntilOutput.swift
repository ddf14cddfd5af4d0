// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that passes on the upstream's elements until a second publisher produces its
    /// first element, and then finishes.
    ///
    /// ```
    /// upstream:                   --1--2--3--4--|
    /// other:                      -------x
    /// prefix(untilOutputFrom:):   --1--2-|
    /// ```
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The second publisher; its first element cancels the upstream and finishes this one.
        public let other: Other

        /// Creates a publisher that passes on the upstream's elements until `other` produces
        /// one.
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

extension Publishers.PrefixUntilOutput {
    /// Apple's shape: the upstream's subscriber is the subscription, handed to the subscriber
    /// when the upstream's subscription arrives; no description or mirror, as Apple's.
    ///
    /// Values, the subscriber's answers and its requests (`.none` included) pass straight
    /// through. The trigger's first value cancels the upstream and finishes — even a subscriber
    /// not yet subscribed, as Apple's — and the trigger is let go, not cancelled; the trigger
    /// finishing or failing first changes nothing. An upstream completion before its
    /// subscription is dropped.
    ///
    /// Calls into the subscriber go through the serial-delivery engine (`SerialDelivery`):
    /// a trigger firing on another thread while a value is being delivered queues the
    /// `.finished` for the delivering thread, which sends it after that call; so does an event
    /// of an upstream that (against the rules) sends from two threads at once, whose value's
    /// answer then goes upstream as a request.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// What is delivered to the subscriber.
        private enum Event {
            case subscription
            case value(Input)
            case completion(Subscribers.Completion<Failure>)
        }

        fileprivate let lock = Lock()
        private var downstream: Downstream?
        private var upstream = UntilOutputSlot.waiting
        private var trigger = UntilOutputSlot.waiting
        /// Who calls the subscriber now, and what other threads left for it.
        fileprivate let delivery = SerialDelivery()
        private var backlog = RingQueue<Event>()

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
            let downstream = self.downstream.take()
            let dropped = dropBacklogLocked()
            lock.release()
            for side in sides { side.cancel() }
            _ = (downstream, dropped)  // released here, outside the lock
        }

        // MARK: The upstream

        func receive(subscription: Subscription) {
            lock.acquire()
            guard case .waiting = upstream, downstream != nil else {
                lock.release()
                subscription.cancel()
                return
            }
            upstream = .live(subscription)
            queueLocked(.subscription)
            serveLocked()
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.acquire()
            guard isLiveLocked else {
                lock.release()
                return .none
            }
            // Asked again after waiting for room: the stream may have ended meanwhile.
            let more = delivery.deliverOwnLocked(
                me: currentThreadID(), lock: lock, mayWait: true, takeOwn: { isLiveLocked ? downstream : nil },
                enqueueOwn: { if isLiveLocked { queueLocked(.value(input)) } }, queued: { backlog.count },
                deliverOwn: { $0.receive(input) }, next: { nextLocked() }, deliver: { deliverQueued($0) })
            return more ?? .none
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
            // Not delivered before the upstream's subscription: the subscriber is let go.
            let unsubscribed = wasLive ? nil : downstream.take()
            if wasLive { queueLocked(.completion(completion)) }
            lock.release()
            withExtendedLifetime(finished) {}
            trigger?.cancel()
            withExtendedLifetime(unsubscribed) {}  // released here, outside the lock
            if wasLive { serve() }
        }

        // MARK: The trigger

        fileprivate func triggerSubscribed(_ subscription: Subscription) {
            let accepted = lock.withLock { trigger.accept(subscription) }
            UntilOutputSlot.start(subscription, accepted: accepted)
        }

        fileprivate func triggerFired() {
            lock.acquire()
            guard case .live(let fired) = trigger else {
                lock.release()
                return
            }
            trigger = .closed  // let go, not cancelled, as Apple's
            let upstream = self.upstream.subscription
            self.upstream = .closed
            queueLocked(.completion(.finished))
            lock.release()
            upstream?.cancel()
            withExtendedLifetime(fired) {}
            serve()
        }

        fileprivate func triggerCompleted() {
            lock.acquire()
            let released = trigger.subscription  // let go, not cancelled
            trigger = .closed
            lock.release()
            withExtendedLifetime(released) {}
        }

        // MARK: Delivery

        /// Under the lock: whether the upstream's values still go to the subscriber.
        private var isLiveLocked: Bool {
            guard case .live = upstream else { return false }
            return downstream != nil
        }

        /// Under the lock: queues `event` for whoever delivers next (this thread, when
        /// ``serveLocked()`` finds nobody delivering).
        private func queueLocked(_ event: Event) {
            delivery.appendLocked(event, to: &backlog)
        }

        /// Under the lock (released on return): delivers what is queued, or leaves it to the
        /// thread delivering now (the engine's queue-first front; the subscription and the
        /// completions never wait for room).
        private func serveLocked() {
            delivery.serveLocked(
                me: currentThreadID(), lock: lock, afterQueuing: true, mayWait: false, queued: { backlog.count },
                next: { nextLocked() }, deliver: { deliverQueued($0) })
        }

        /// ``serveLocked()``, taking the lock first.
        private func serve() {
            lock.acquire()
            serveLocked()
        }

        /// Calls the subscriber with `event`; returns its answer to a value.
        private func deliver(_ event: Event, to downstream: Downstream?) -> Subscribers.Demand {
            switch event {
            case .subscription:
                downstream?.receive(subscription: self)
            case .value(let value):
                return downstream?.receive(value) ?? .none
            case .completion(let completion):
                downstream?.receive(completion: completion)
            }
            return .none
        }

        /// A queued event for the delivery loop, with the subscriber it goes to and the
        /// upstream a value's answer goes to; or, once the stream has ended, the events it
        /// dropped (let go after the lock).
        private enum Queued {
            case event(Event, Downstream, Subscription?)
            case ended(Event?, Downstream?, RingQueue<Event>)
        }

        /// Under the lock, for the delivery loop: the next queued event.
        private func nextLocked() -> DeliveryStep<Queued> {
            guard let downstream else {
                return .last(.ended(nil, nil, dropBacklogLocked()))  // cancelled or ended meanwhile
            }
            guard let event = delivery.takeLocked(from: &backlog) else { return .idle }
            if case .completion = event {
                self.downstream = nil
                return .last(.ended(event, downstream, dropBacklogLocked()))
            }
            return .deliver(.event(event, downstream, upstream.subscription))
        }

        /// For the delivery loop, after the lock: delivers a queued event (a value's answer
        /// goes upstream as a request).
        private func deliverQueued(_ queued: Queued) {
            switch queued {
            case .event(let event, let downstream, let upstream):
                let more = deliver(event, to: downstream)
                if more > 0 { upstream?.request(more) }
            case .ended(let event, let downstream, _):
                if let event { _ = deliver(event, to: downstream) }
            }
        }

        /// Under the lock: empties the backlog; release what it returns after the lock.
        private func dropBacklogLocked() -> RingQueue<Event> {
            let dropped = backlog
            backlog = RingQueue()
            return dropped
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

extension Publisher {
    /// Passes on the upstream's elements until `publisher` produces one, then finishes.
    ///
    /// ![A marble diagram of prefix(untilOutputFrom:), drawn from a run of it](marble-prefix-untilOutputFrom)
    ///
    /// The operator asks `publisher` for a single element. When it arrives, the upstream is
    /// cancelled and the subscriber receives `.finished`, even if the upstream had not yet
    /// delivered its subscription; `publisher` is then let go, not cancelled. If `publisher`
    /// finishes or fails without producing an element, nothing changes: the upstream is
    /// republished until it completes. Upstream elements, the upstream's completion and the
    /// subscriber's requests pass straight through.
    ///
    /// ```swift
    /// let ticks = PassthroughSubject<Int, Never>()
    /// let stop = PassthroughSubject<Void, Never>()
    /// let cancellable = ticks
    ///     .prefix(untilOutputFrom: stop)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ticks.send(1)
    /// ticks.send(2)
    /// stop.send()
    /// ticks.send(3)
    /// // Prints: 1, 2, finished
    /// ```
    ///
    /// - Parameter publisher: The publisher whose first element ends the stream; its output and
    ///   failure types can be anything.
    /// - Returns: A `Publishers.PrefixUntilOutput` publisher that republishes the upstream's
    ///   elements until `publisher` produces one.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers.PrefixUntilOutput.Inner: SerialDeliveryOwner {
    var peakBacklog: Int { lock.withLock { delivery.peakBacklogLocked } }
}
