// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publishers {
    /// A publisher that maps each upstream value to a publisher and publishes their values one
    /// publisher after another, in the order of the upstream values. Made by
    /// `concatMap(_:)`.
    ///
    /// ```
    /// upstream:    -a--b------------|
    /// inner for a:  --1--2|
    /// inner for b:        --3--4|          (subscribed when a's inner finished)
    /// output:      ---1--2--3--4----|
    /// ```
    public struct ConcatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values this publisher publishes.
        public typealias Output = NewPublisher.Output

        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure
        /// The closure that makes an inner publisher from an upstream value.
        public typealias Transform = (Upstream.Output) -> NewPublisher

        /// The publisher whose values are mapped.
        public let upstream: Upstream
        /// Makes an inner publisher from an upstream value.
        public let transform: Transform

        /// Creates a publisher that concatenates the publishers `transform` makes from the
        /// upstream's values.
        public init(upstream: Upstream, transform: @escaping Transform) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = ConcatMapSubscription<Upstream, NewPublisher, S>(
                downstream: subscriber, transform: transform)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(ConcatMapSubscription.Outer(owner: subscription))
        }
    }
}

/// The subscription of `concatMap`: asks the upstream for everything, keeps the inner
/// publishers it makes in order, and runs one at a time, passing the subscriber's demand to
/// the running one (what it leaves unused carries over to the next).
///
/// Inner publishers are started by one loop at a time: an inner that finishes during its own
/// subscription (a `Just`) lets the loop start the next one instead of nesting, so a long queue
/// of such publishers keeps the stack flat. Any failure cancels the upstream and the running
/// inner; a cancel cancels both.
private final class ConcatMapSubscription<Upstream: Publisher, Inner: Publisher, Downstream: Subscriber>:
    Subscription, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure, Upstream.Failure == Downstream.Failure {
    private let lock = Lock()
    private let delivery: DownstreamQueue<Downstream>
    /// Replaced by a closure that holds nothing at the end.
    private var transform: (Upstream.Output) -> Inner
    private var upstream: Subscription?
    private var upstreamFinished = false
    private var pending = RingQueue<Inner>()
    /// The running inner publisher's number (0: none) and its subscription once it came.
    private var active = 0
    private var activeSubscription: Subscription?
    private var generation = 0
    /// The subscriber's demand not yet used by a delivered value.
    private var outstanding = Subscribers.Demand.none
    /// A loop is starting inner publishers (see the type's comment).
    private var starting = false
    private var ended = false

    init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Inner) {
        delivery = DownstreamQueue(downstream)
        self.transform = transform
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        let active: Subscription? = lock.withLock {
            guard !ended else { return nil }
            outstanding += demand
            return activeSubscription
        }
        _ = delivery.request(demand)
        active?.request(demand)
    }

    func cancel() {
        guard let (upstream, active, pending, transform) = end() else { return }
        _ = delivery.cancel()
        active?.cancel()
        upstream?.cancel()
        _ = (pending, transform)
    }

    /// Marks the end and takes what is to be cancelled or let go, for the caller to do so after
    /// the lock; `nil` if it had ended already.
    private func end() -> (Subscription?, Subscription?, RingQueue<Inner>, (Upstream.Output) -> Inner)? {
        lock.withLock {
            guard !ended else { return nil }
            ended = true
            let transform = self.transform
            self.transform = { _ in preconditionFailure("unreachable: transform runs only before the end") }
            let taken = (upstream, activeSubscription, pending, transform)
            pending = RingQueue()
            upstream = nil
            activeSubscription = nil
            active = 0
            return taken
        }
    }

    private func fail(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard let (upstream, active, pending, transform) = end() else { return }
        active?.cancel()
        upstream?.cancel()
        _ = (pending, transform)
        _ = delivery.send(completion: completion)
    }

    // MARK: The upstream

    fileprivate func receiveUpstream(subscription: Subscription) {
        let accepted: Bool = lock.withLock {
            guard !ended, upstream == nil, !upstreamFinished else { return false }
            upstream = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    fileprivate func receiveUpstream(_ value: Upstream.Output) {
        let transform: ((Upstream.Output) -> Inner)? = lock.withLock { ended ? nil : self.transform }
        guard let inner = transform?(value) else { return }
        let queued: Bool = lock.withLock {
            guard !ended else { return false }
            pending.append(inner)
            return true
        }
        if queued { startNext() }
    }

    fileprivate func receiveUpstream(completion: Subscribers.Completion<Downstream.Failure>) {
        if case .failure = completion {
            fail(completion)
            return
        }
        let released: Subscription? = lock.withLock {
            guard !ended else { return nil }
            upstreamFinished = true
            return upstream.take()
        }
        withExtendedLifetime(released) {}
        startNext()
    }

    // MARK: The inner publishers

    /// Starts queued inner publishers while none runs; finishes once the upstream has finished
    /// and nothing is left.
    private func startNext() {
        var next: Inner?
        var number = 0
        var finish = false
        var transform: ((Upstream.Output) -> Inner)?
        let proceed: Bool = lock.withLock {
            guard !starting, !ended else { return false }
            starting = true
            return true
        }
        guard proceed else { return }
        while true {
            lock.withLock {
                next = nil
                guard !ended, active == 0 else {
                    starting = false
                    return
                }
                if let inner = pending.popFirst() {
                    generation += 1
                    active = generation
                    number = generation
                    next = inner
                    return
                }
                starting = false
                if upstreamFinished {
                    ended = true
                    finish = true
                    transform = self.transform
                    self.transform = { _ in preconditionFailure("unreachable: transform runs only before the end") }
                }
            }
            guard let inner = next else { break }
            inner.subscribe(Child(owner: self, number: number))
        }
        withExtendedLifetime(transform) {}
        if finish { _ = delivery.send(completion: .finished) }
    }

    fileprivate func receiveInner(subscription: Subscription, number: Int) {
        let demand: Subscribers.Demand? = lock.withLock {
            guard !ended, active == number, activeSubscription == nil else { return nil }
            activeSubscription = subscription
            return outstanding
        }
        guard let demand else {
            subscription.cancel()
            return
        }
        if demand > 0 { subscription.request(demand) }
    }

    fileprivate func receiveInner(_ value: Inner.Output, number: Int) -> Subscribers.Demand {
        let current: Bool = lock.withLock {
            guard !ended, active == number else { return false }
            if outstanding > 0 { outstanding -= 1 }
            return true
        }
        guard current else { return .none }
        let more = delivery.send(value)
        if more > 0 { lock.withLock { outstanding += more } }
        return more
    }

    fileprivate func receiveInner(completion: Subscribers.Completion<Downstream.Failure>, number: Int) {
        if case .failure = completion {
            let current = lock.withLock { !ended && active == number }
            if current { fail(completion) }
            return
        }
        let finished: Subscription?? = lock.withLock {
            guard !ended, active == number else { return nil }
            active = 0
            return .some(activeSubscription.take())
        }
        guard let finished else { return }
        withExtendedLifetime(finished) {}  // released here, outside the lock
        startNext()
    }

    struct Outer: Subscriber {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let owner: ConcatMapSubscription
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: Subscription) { owner.receiveUpstream(subscription: subscription) }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            owner.receiveUpstream(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            owner.receiveUpstream(completion: completion)
        }
    }

    struct Child: Subscriber {
        typealias Input = Inner.Output
        typealias Failure = Inner.Failure

        let owner: ConcatMapSubscription
        let number: Int
        let combineIdentifier = CombineIdentifier()

        func receive(subscription: Subscription) { owner.receiveInner(subscription: subscription, number: number) }

        func receive(_ input: Inner.Output) -> Subscribers.Demand { owner.receiveInner(input, number: number) }

        func receive(completion: Subscribers.Completion<Inner.Failure>) {
            owner.receiveInner(completion: completion, number: number)
        }
    }
}

extension Publisher {
    /// Maps each value to a publisher and publishes the values of those publishers one after
    /// another: the next inner publisher is subscribed only once the previous one has finished,
    /// so the output keeps the order of the upstream values.
    ///
    /// ![A marble diagram of concatMap(_:), drawn from a run of it](marble-concatMap)
    ///
    /// ```swift
    /// // upstream:    -a--b------------|
    /// // inner for a:  --1--2|
    /// // inner for b:        --3--4|          (subscribed when a's inner finished)
    /// // concatMap:   ---1--2--3--4----|
    /// uploads.concatMap { file in upload(file) }   // one upload at a time, in order
    /// ```
    ///
    /// - Upstream values are requested without limit and wait, already mapped, until their turn
    ///   (`transform` runs as each value arrives), so a subject's values are not lost while an
    ///   inner publisher runs — as CombineExt's and RxSwift's `concatMap` do.
    /// - The subscriber's demand goes to the running inner publisher; demand it leaves unused
    ///   carries over to the next one. The subscriber never receives more than it requested.
    /// - It finishes when the upstream has finished and every inner publisher has finished. A
    ///   failure of the upstream or of an inner publisher fails it at once and cancels the rest.
    ///
    /// - Parameter transform: Makes the publisher whose values to publish for an upstream value.
    /// - Returns: A publisher of the inner publishers' values, one publisher after another.
    public func concatMap<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.ConcatMap<P, Self> where P.Failure == Failure {
        Publishers.ConcatMap(upstream: self, transform: transform)
    }
}
