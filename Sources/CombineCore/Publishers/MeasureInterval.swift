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

        private final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Upstream.Output

            private let lock = Lock()
            @exclusivity(unchecked) private var last: Context.SchedulerTimeType?
            private let downstream: Downstream
            private let scheduler: Context
            let combineIdentifier = CombineIdentifier()

            init(downstream: Downstream, scheduler: Context) {
                self.downstream = downstream
                self.scheduler = scheduler
            }

            var description: String { "MeasureInterval" }

            func receive(subscription: Subscription) {
                let now = scheduler.now
                lock.withLock { last = now }
                downstream.receive(subscription: subscription)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                let now = scheduler.now
                let previous: Context.SchedulerTimeType? = lock.withLock {
                    defer { last = now }
                    return last
                }
                return downstream.receive((previous ?? now).distance(to: now))
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                downstream.receive(completion: completion)
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
