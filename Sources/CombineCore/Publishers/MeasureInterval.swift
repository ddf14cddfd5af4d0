extension Publishers {
    /// A publisher that measures and emits the time interval between events received from
    /// an upstream publisher.
    ///
    /// ```
    /// upstream:         --a----b-c--|
    /// measureInterval:  --2----4-1--|      (strides of the scheduler's time type)
    /// ```
    ///
    /// The first interval is measured from the subscription. Time is read from the
    /// scheduler's `now`; nothing is scheduled on it.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events
        /// received from an upstream publisher.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Failure == S.Failure, S.Input == Output {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }

        /// Apple's shape: the upstream's subscriber is the subscription, handed to the
        /// subscriber once the clock was read for the start. Demand the subscriber returns for
        /// a value is asked of the upstream at once; requests (`.none` included) go upstream as
        /// they come. Before the subscription a value, completion, request or cancel is ignored.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var last: Context.SchedulerTimeType?
            /// `nil` until the upstream's subscription comes, and after the end or a cancel.
            @exclusivity(unchecked) private var upstream: Subscription?
            @exclusivity(unchecked) private var downstream: Downstream?
            @exclusivity(unchecked) private var subscribed = false
            private let scheduler: Context

            init(downstream: Downstream, scheduler: Context) {
                self.downstream = downstream
                self.scheduler = scheduler
            }

            var description: String { "MeasureInterval" }
            var customMirror: Mirror { Mirror(self, children: [:]) }
            var playgroundDescription: Any { description }

            func receive(subscription: Subscription) {
                lock.acquire()
                guard !subscribed, let downstream else {
                    lock.release()
                    subscription.cancel()
                    return
                }
                subscribed = true
                upstream = subscription
                lock.release()
                let now = scheduler.now
                lock.acquire()
                last = now
                lock.release()
                downstream.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                lock.acquire()
                guard upstream != nil, let downstream else {
                    lock.release()
                    return .none
                }
                lock.release()
                let now = scheduler.now
                lock.acquire()
                let previous = last ?? now
                last = now
                lock.release()
                let more = downstream.receive(previous.distance(to: now))
                if more > 0 { lock.withLock { upstream }?.request(more) }
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.acquire()
                let upstream = self.upstream.take()
                let downstream = self.downstream.take()
                lock.release()
                _ = upstream  // released here, outside the lock
                if upstream != nil { downstream?.receive(completion: completion) }
            }

            func request(_ demand: Subscribers.Demand) {
                lock.withLock { upstream }?.request(demand)
            }

            func cancel() {
                lock.acquire()
                let upstream = self.upstream.take()
                let downstream = subscribed ? self.downstream.take() : nil
                lock.release()
                upstream?.cancel()
                _ = downstream  // released here, outside the lock
            }
        }
    }
}

extension Publisher {
    /// Measures and emits the time interval between events received from an upstream
    /// publisher.
    ///
    /// ```swift
    /// taps.measureInterval(using: DispatchQueue.main)
    ///     .sink { print("\($0.magnitude) ns since the last tap") }
    /// ```
    ///
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements (unused: time is only
    ///     read from the scheduler).
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S>
    {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
