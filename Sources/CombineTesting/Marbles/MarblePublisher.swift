// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization
import Synchronization

/// A publisher that plays a marble on a ``MarbleTest``'s virtual clock, made by
/// ``MarbleTest/hot(_:values:error:sourceLocation:)`` or
/// ``MarbleTest/cold(_:values:error:sourceLocation:)``, and records what its subscribers did.
///
/// - A **hot** publisher has one timeline for everybody, fixed when it is made: each event
///   happens at its tick counted from virtual time zero (the marble's `^`), whoever listens.
///   It behaves like a `PassthroughSubject` driven by the clock: every current subscriber
///   gets each value if it has demand, and a subscriber without demand misses that value.
///   Ticks left of `^` (and ticks already past when the publisher is made) have passed
///   before anyone could subscribe: their values are never seen, and a completion there
///   means the publisher has already completed (a subscriber then gets the completion at
///   once).
/// - A **cold** publisher starts its timeline anew for each subscriber, at the tick it
///   subscribes. It behaves like a well-behaved finite upstream: a value the subscriber has
///   not requested yet waits, in order, and is delivered as soon as it is requested (the
///   completion waits behind such values); cancelling stops it.
///
/// Events happen on the scheduler, so nothing arrives until the clock is advanced (by
/// `MarbleTest.advance(ticks:)`, `record`, `expect` or `scheduler` itself), even an event at
/// tick zero.
///
/// ```swift
/// let m = MarbleTest()
/// let source = m.hot("-a-b-c-|")
/// let subscriber = TestSubscriber<String, MarbleError>(initialDemand: .max(1))
/// source.subscribe(subscriber)
/// m.advance(ticks: 4)             // a at tick 1; b at tick 3 is missed: no demand
/// subscriber.request(.max(1))
/// subscriber.cancel()             // at tick 4
/// source.subscriptions            // ["^---!"]
/// source.requests                 // [.max(1), .max(1)]
/// ```
///
/// All members are thread-safe; a subscriber is never called while the publisher's lock is
/// held, and never twice at once.
public final class MarblePublisher<Output, Failure: Error>: Publisher, CustomStringConvertible, @unchecked Sendable {
    /// Whether the timeline is shared (hot) or started for each subscriber (cold).
    enum Kind: String {
        case hot, cold
    }

    private let lock = Lock()
    private let kind: Kind
    private let marble: String
    private let timeline: MarbleTimeline<Output, Failure>
    private let tick: VirtualTime.Stride
    // Weak: the scheduler holds the hot timeline's actions, which hold this publisher.
    private weak var scheduler: TestScheduler<VirtualTime, Never>?
    private var subscribers: [Conduit] = []
    private var hotCompletion: Subscribers.Completion<Failure>?
    private var subscriptionLog: [(subscribed: Int, cancelled: Int?)] = []
    private var requestLog: [Subscribers.Demand] = []

    init(
        _ kind: Kind, marble: String, timeline: MarbleTimeline<Output, Failure>,
        scheduler: TestScheduler<VirtualTime, Never>,
        tick: VirtualTime.Stride
    ) {
        self.kind = kind
        self.marble = marble
        self.timeline = timeline
        self.scheduler = scheduler
        self.tick = tick
        guard kind == .hot else { return }
        let now = scheduler.now
        for (time, events) in timeline {
            let due = VirtualTime.zero.advanced(by: span(ticks: time))
            if due < now {
                // Before anyone could subscribe: only a completion leaves a trace.
                for case .completion(let completion) in events { hotCompletion = completion }
            } else {
                scheduler.schedule(after: due, tolerance: .zero, options: nil) { self.play(events) }
            }
        }
    }

    /// `hot(--a--b--|)` or `cold(--a--b--|)`.
    public var description: String { "\(kind.rawValue)(\(marble))" }

    /// One marble per subscriber, in the order they subscribed, drawn in ticks from virtual
    /// time zero: `-` for each tick before the subscription, `^` where it subscribed, then
    /// `-` up to a `!` where it cancelled. A subscription still open, or ended by the
    /// publisher's completion, ends at its `^`; `[^!]` is a cancel on the subscription's own
    /// tick.
    ///
    /// ```swift
    /// source.subscriptions == ["^---!", "--^"]   // one cancelled at tick 4, one still open
    /// ```
    public var subscriptions: [String] {
        lock.withLock { subscriptionLog }.map { subscribed, cancelled in
            let before = String(repeating: "-", count: subscribed)
            guard let cancelled else { return before + "^" }
            if cancelled == subscribed { return before + "[^!]" }
            return before + "^" + String(repeating: "-", count: cancelled - subscribed - 1) + "!"
        }
    }

    /// Every demand requested by any of its subscribers, in order.
    public var requests: [Subscribers.Demand] { lock.withLock { requestLog } }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let start = scheduler?.now ?? .zero
        let erased = AnySubscriber(subscriber)
        let (conduit, completed): (Conduit, Subscribers.Completion<Failure>?) = lock.withLock {
            let conduit = Conduit(
                publisher: self, subscriber: erased, logIndex: subscriptionLog.count, holdsValues: kind == .cold)
            subscriptionLog.append((tickIndex(start), nil))
            if kind == .hot, hotCompletion == nil { subscribers.append(conduit) }
            return (conduit, kind == .hot ? hotCompletion : nil)
        }
        subscriber.receive(subscription: conduit)
        if let completed { conduit.offer(.completion(completed)) }
        guard kind == .cold, let scheduler else { return }
        for (time, events) in timeline {
            scheduler.schedule(after: start.advanced(by: span(ticks: time)), tolerance: .zero, options: nil) {
                for event in events { conduit.offer(event) }
            }
        }
    }

    // MARK: The hot timeline

    private func play(_ events: [MarbleEvent<Output, Failure>]) {
        for event in events {
            let targets: [Conduit] = lock.withLock {
                guard hotCompletion == nil else { return [] }
                let current = subscribers
                if case .completion(let completion) = event {
                    hotCompletion = completion
                    subscribers = []
                }
                return current
            }
            for conduit in targets { conduit.offer(event) }
        }
    }

    // MARK: Records

    private func span(ticks: Int) -> VirtualTime.Stride {
        VirtualTime.Stride(nanoseconds: tick.nanoseconds * ticks)
    }

    private func tickIndex(_ time: VirtualTime) -> Int {
        time.nanoseconds / tick.nanoseconds
    }

    fileprivate func didRequest(_ demand: Subscribers.Demand) {
        lock.withLock { requestLog.append(demand) }
    }

    fileprivate func didCancel(_ conduit: Conduit) {
        let now = scheduler?.now ?? .zero
        lock.withLock {
            subscriptionLog[conduit.logIndex].cancelled = tickIndex(now)
            subscribers.removeAll { $0 === conduit }
        }
    }

    /// The subscription of one subscriber: its demand, and (cold) the values waiting for it.
    fileprivate final class Conduit: Subscription, CustomStringConvertible, @unchecked Sendable {
        private enum Step {
            case idle
            case value(AnySubscriber<Output, Failure>, Output)
            case completion(AnySubscriber<Output, Failure>, Subscribers.Completion<Failure>)
        }

        let logIndex: Int
        private let lock = Lock()
        private weak var publisher: MarblePublisher?
        private let holdsValues: Bool
        private var subscriber: AnySubscriber<Output, Failure>?
        private var demand = Subscribers.Demand.none
        private var pending: [MarbleEvent<Output, Failure>] = []
        private var delivering = false

        init(publisher: MarblePublisher, subscriber: AnySubscriber<Output, Failure>, logIndex: Int, holdsValues: Bool) {
            self.publisher = publisher
            self.subscriber = subscriber
            self.logIndex = logIndex
            self.holdsValues = holdsValues
        }

        var description: String { "MarblePublisher" }

        func request(_ demand: Subscribers.Demand) {
            lock.withLock { self.demand += demand }
            publisher?.didRequest(demand)
            drain()
        }

        func cancel() {
            // The subscriber and the undelivered events are released after the lock: the
            // subscriber's deinit may cancel again.
            var dropped: [MarbleEvent<Output, Failure>] = []
            let subscriber: AnySubscriber<Output, Failure>? = lock.withLock {
                swap(&dropped, &pending)
                return self.subscriber.take()
            }
            if subscriber != nil { publisher?.didCancel(self) }
            withExtendedLifetime(dropped) {}
        }

        /// Queues an event for the subscriber and delivers what its demand allows.
        func offer(_ event: MarbleEvent<Output, Failure>) {
            lock.withLock { if subscriber != nil { pending.append(event) } }
            drain()
        }

        // One thread delivers at a time; a request or offer made meanwhile (from inside the
        // subscriber, or from another thread) only adds to the state, and the delivering loop
        // picks it up.
        private func drain() {
            while true {
                var dropped: [MarbleEvent<Output, Failure>] = []  // released after the lock
                let step = nextStep(dropping: &dropped)
                withExtendedLifetime(dropped) {}
                switch step {
                case .idle:
                    return
                case .value(let subscriber, let value):
                    let more = subscriber.receive(value)
                    lock.withLock {
                        demand += more
                        delivering = false
                    }
                case .completion(let subscriber, let completion):
                    subscriber.receive(completion: completion)
                    return
                }
            }
        }

        /// The next thing to deliver; events it drops go to `dropped`, for the caller to
        /// release after the lock.
        private func nextStep(dropping dropped: inout [MarbleEvent<Output, Failure>]) -> Step {
            lock.withLock {
                guard !delivering, let subscriber else { return .idle }
                while let event = pending.first {
                    switch event {
                    case .value(let value):
                        if demand > 0 {
                            pending.removeFirst()
                            demand -= 1
                            delivering = true
                            return .value(subscriber, value)
                        }
                        if holdsValues { return .idle }
                        dropped.append(pending.removeFirst())  // hot: missed for want of demand
                    case .completion(let completion):
                        swap(&dropped, &pending)
                        self.subscriber = nil
                        return .completion(subscriber, completion)
                    }
                }
                return .idle
            }
        }
    }
}
