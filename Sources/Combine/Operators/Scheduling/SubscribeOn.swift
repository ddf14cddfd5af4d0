// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that subscribes to its upstream, and sends it requests and the cancel,
    /// through `scheduler`.
    ///
    /// Subscribing to the upstream publisher, requests and cancellation are performed on the
    /// scheduler; values and the completion arrive on whatever thread upstream sends them.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher that is subscribed to on `scheduler`.
        public let upstream: Upstream

        /// Where the subscribe call, each request and the cancel are made.
        public let scheduler: Context

        /// Options given to `scheduler` with each action it is asked to run.
        public let options: Context.SchedulerOptions?

        /// Makes a publisher that subscribes to `upstream`, and talks to it afterwards, on
        /// `scheduler`, with `options`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let scheduler = self.scheduler
            let options = self.options
            let inner = Inner(downstream: subscriber) { scheduler.schedule(options: options, $0) }
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.subscribe(inner) }
        }

        /// Passes values and the completion through; sends subscription, requests and
        /// cancellation through the scheduler.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
            CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
        where Downstream.Input == Output, Downstream.Failure == Failure {
            typealias Input = Output

            private let lock = Lock()
            @exclusivity(unchecked) private var downstream: Downstream?
            @exclusivity(unchecked) private var upstream: Subscription?
            @exclusivity(unchecked) private var subscribed = false
            /// The thread calling the upstream's `request` or `cancel` for this subscription now.
            @exclusivity(unchecked) private var callingUpstreamThread: UInt = 0
            private let onScheduler: (@escaping () -> Void) -> Void

            init(downstream: Downstream, onScheduler: @escaping (@escaping () -> Void) -> Void) {
                self.downstream = downstream
                self.onScheduler = onScheduler
            }

            var description: String { "SubscribeOn" }
            var customMirror: Mirror { Mirror(self, children: [:]) }
            var playgroundDescription: Any { description }

            func receive(subscription: Subscription) {
                let downstream: Downstream? = lock.withLock {
                    guard !subscribed, let downstream = self.downstream else { return nil }
                    subscribed = true
                    upstream = subscription
                    return downstream
                }
                guard let downstream else {
                    subscription.cancel()
                    return
                }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Input) -> Subscribers.Demand {
                guard let downstream = lock.withLock({ self.upstream == nil ? nil : self.downstream }) else {
                    return .none
                }
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                lock.acquire()
                let upstream = self.upstream.take()
                let downstream = self.downstream.take()
                lock.release()
                // Both are released after the lock; a completion without a subscription is ignored.
                if upstream != nil { downstream?.receive(completion: completion) }
            }

            /// Any demand, `.none` included, goes upstream on the scheduler, as Apple's.
            func request(_ demand: Subscribers.Demand) {
                guard let upstream = lock.withLock({ self.upstream }) else { return }
                onScheduler { self.callUpstream { upstream.request(demand) } }
            }

            /// A cancel before the upstream's subscription is ignored, as Apple's: the subscriber
            /// has not been handed this subscription yet.
            func cancel() {
                lock.acquire()
                guard subscribed else {
                    lock.release()
                    return
                }
                let upstream = self.upstream.take()
                let downstream = self.downstream.take()
                lock.release()
                if let upstream { onScheduler { self.callUpstream { upstream.cancel() } } }
                withExtendedLifetime(downstream) {}  // released here, outside the lock
            }

            /// Calls the upstream. A request or cancel that the scheduler runs at once from
            /// inside the upstream's own `request` (a synchronous scheduler such as
            /// `ImmediateScheduler`) traps, as Apple's does on its lock.
            private func callUpstream(_ call: () -> Void) {
                let me = currentThreadID()
                lock.acquire()
                if callingUpstreamThread == me {
                    lock.release()
                    apiViolation(
                        "subscribe(on:) was asked to request or cancel from inside its upstream's request(_:) on the "
                            + "same thread (a scheduler that runs actions at once)")
                }
                // Another thread's call may be under way (a concurrent scheduler): only the
                // thread that set the mark clears it.
                let marks = callingUpstreamThread == 0
                if marks { callingUpstreamThread = me }
                lock.release()
                call()
                if marks { lock.withLock { callingUpstreamThread = 0 } }
            }
        }
    }
}

extension Publisher {
    /// Subscribes to this publisher, and sends it every request and the cancel, on
    /// `scheduler`.
    ///
    /// ![A marble diagram of subscribe(on:options:), drawn from a run of it](marble-subscribe-on)
    ///
    /// Use it when subscribing starts expensive work (a query, a file read) that should not
    /// run on the caller's thread:
    ///
    /// ```swift
    /// expensivePublisher
    ///     .subscribe(on: backgroundQueue)
    ///     .receive(on: DispatchQueue.main)
    ///     .sink { update($0) }
    /// ```
    ///
    /// Values arrive on the thread upstream sends them on; pair with
    /// ``receive(on:options:)`` to choose that thread too.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .handleEvents(receiveRequest: { _ in print("main thread:", Thread.isMainThread) })
    ///     .subscribe(on: DispatchQueue.global())
    ///     .sink { print($0) }
    /// // Prints, from a global queue: main thread: false, 1, 2
    /// ```
    ///
    /// Every request, `.none` included, and the cancel are sent to the upstream through the
    /// scheduler as well; demand is passed on unchanged. With a scheduler that runs actions
    /// at once, such as `ImmediateScheduler`, a request or cancel made from inside the
    /// upstream's own `request(_:)` call (a `prefix(1)` below, for instance) stops the
    /// program, as Apple's Combine does on its lock.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler on which to subscribe to the upstream and send it
    ///     requests and the cancel.
    ///   - options: Scheduler options passed to each `schedule(options:_:)` call.
    /// - Returns: A ``Publishers/SubscribeOn`` publisher that talks to this publisher on
    ///   `scheduler`.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
