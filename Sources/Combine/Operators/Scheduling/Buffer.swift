// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable {
        /// Ask the upstream for `size` values once subscribed, then for one more each time a
        /// buffered value goes to the subscriber.
        case keepFull

        /// Ask the upstream for an unlimited number of values once subscribed, as Apple's
        /// Combine does; `whenFull` deals with the values that do not fit.
        case byRequest
    }

    /// What a buffer does with a value that arrives while it already holds `size` values.
    public enum BufferingStrategy<Failure: Error> {
        /// Drop the value that just arrived; the buffered values stay.
        case dropNewest

        /// Drop the value that has waited longest, making room for the one that just arrived.
        case dropOldest

        /// Cancel the upstream at once and fail with the error the closure returns, after the
        /// buffered values the subscriber has demand for.
        case customError(() -> Failure)
    }

    /// A publisher that holds upstream values the subscriber has not asked for yet and hands
    /// them on, oldest first, as demand arrives.
    ///
    /// ```
    /// upstream:                       --1--2--3--4--|
    /// buffer(size: 2, .keepFull, .dropNewest), subscriber asking later for 3:
    ///                                  1, 2, 4
    /// ```
    ///
    /// With `.keepFull` it asks upstream for `size` elements at once and for one more each
    /// time one is delivered; with `.byRequest` it asks for everything as soon as it is
    /// subscribed. Elements wait in the buffer until the subscriber has demand; when it is
    /// full, `whenFull` decides. A size of zero is accepted, as by Apple's: nothing is kept.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type; a `.customError` strategy fails with this type too.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are buffered.
        public let upstream: Upstream

        /// How many values the buffer holds at most; zero keeps none.
        public let size: Int

        /// How the upstream is asked for values: `.keepFull` or `.byRequest`.
        public let prefetch: Publishers.PrefetchStrategy

        /// What happens to a value that arrives while the buffer holds `size` values.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Makes a publisher that keeps up to `size` values of `upstream` until the subscriber
        /// asks for them.
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Publishers.Buffer<Upstream>.Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

/// The subscription of `buffer`, which is also the subscriber given to the upstream (as
/// Apple's): the subscriber receives it once the upstream's subscription has arrived.
///
/// Apple's order: the first request goes upstream (`.max(size)` for `.keepFull`,
/// `.unlimited` for `.byRequest`) before the subscriber receives the subscription. Values
/// wait in the buffer until the subscriber has demand; `.keepFull` asks upstream for one
/// more for each value delivered. When the buffer is full, `whenFull` decides; the custom
/// error cancels the upstream and waits for the next delivery attempt.
///
/// A failure goes to the subscriber as soon as it has no demand left (values still in the
/// buffer are dropped); `.finished` waits until the buffer is empty and the subscriber has
/// demand. Values the upstream sends after `.finished` but before it was delivered are
/// buffered like any other (Apple's); after a failure they are ignored.
///
/// Delivery is one value at a time with no lock held. A request made while a value is being
/// delivered only adds demand: the delivering loop picks it up, so a subscriber that asks
/// for one more from `receive(_:)` does not recurse. A value the upstream sends from inside
/// the subscriber's callback on the same thread is delivered nested (after the values queued
/// ahead of it); one sent from another thread meanwhile is left to the delivering thread.
private final class BufferSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum State {
        case awaitingSubscription
        case subscribed(Subscription)
        case ended
    }

    private let lock = Lock()
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private let whenFull: Publishers.BufferingStrategy<Failure>
    /// `nil` once the completion was delivered or the subscription cancelled.
    private var downstream: Downstream?
    private var state = State.awaitingSubscription
    private var demand = Subscribers.Demand.none
    private var values = RingQueue<Input>()
    /// The completion waiting to be delivered.
    private var terminal: Subscribers.Completion<Failure>?
    /// Who calls the subscriber now; the buffer is its backlog (see `SerialDelivery`).
    private let delivery = SerialDelivery()
    /// The subscriber has been handed this subscription: nothing is delivered before (an
    /// upstream failing during the first request waits for it).
    private var handedOver = false
    /// The thread running the `customError` closure, which must not send to this buffer.
    private var makingErrorThread: UInt = 0

    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = downstream
        self.size = size
        self.prefetch = prefetch
        self.whenFull = whenFull
    }

    var description: String { "Buffer" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror {
        lock.acquire()
        let children: KeyValuePairs<String, Any> = [
            "values": values.elements, "state": state, "downstreamDemand": demand, "terminal": terminal as Any,
        ]
        lock.release()
        return Mirror(self, children: children)
    }

    // MARK: Subscriber

    func receive(subscription: Subscription) {
        lock.acquire()
        guard case .awaitingSubscription = state, let downstream else {
            lock.release()
            subscription.cancel()
            return
        }
        state = .subscribed(subscription)
        lock.release()
        let initial: Subscribers.Demand = prefetch == .keepFull ? .max(Swift.max(size, 0)) : .unlimited
        if initial > 0 { subscription.request(initial) }
        downstream.receive(subscription: self)
        lock.withLock { handedOver = true }
        let more = drain(afterQueuing: false)  // what arrived during the first request (a completion, say)
        if more > 0 { subscription.request(more) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard case .subscribed(let subscription) = state else {
            lock.release()
            return .none
        }
        apiPrecondition(
            makingErrorThread != currentThreadID(),
            "buffer: the customError closure sent a value to the buffer it is making the error for")
        if case .failure = terminal {
            lock.release()
            return .none
        }
        var dropped: Input?
        if values.count >= size {
            switch whenFull {
            case .dropNewest:
                lock.release()
                return drain(afterQueuing: false)
            case .dropOldest:
                guard let oldest = values.popFirst() else {
                    lock.release()  // a buffer of size zero: the new value is the oldest
                    return drain(afterQueuing: false)
                }
                dropped = oldest
            case .customError(let makeError):
                makingErrorThread = currentThreadID()
                lock.release()
                let error = makeError()
                lock.acquire()
                makingErrorThread = 0
                if case .subscribed = state {
                    if case .failure = terminal {} else { terminal = .failure(error) }
                }
                lock.release()
                subscription.cancel()
                return .none
            }
        }
        values.append(input)
        lock.release()
        withExtendedLifetime(dropped) {}  // released here, outside the lock
        return drain(afterQueuing: true)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard case .subscribed = state, terminal == nil else {
            lock.release()
            return
        }
        terminal = completion
        lock.release()
        _ = drain(afterQueuing: true)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        lock.acquire()
        guard case .subscribed(let subscription) = state else {
            lock.release()
            return
        }
        self.demand += demand
        // From inside the subscriber's callback, the delivery loop it returns to sees the new
        // demand (the stack stays flat); while another thread delivers, drain leaves it to it.
        let nested = delivery.isDelivering(me: currentThreadID())
        lock.release()
        guard !nested else { return }
        let more = drain(afterQueuing: false)
        if more > 0 { subscription.request(more) }
    }

    func cancel() {
        lock.acquire()
        guard case .subscribed(let subscription) = state else {
            lock.release()
            return
        }
        state = .ended
        let downstream = self.downstream.take()
        let values = self.values
        self.values = RingQueue()
        lock.release()
        _ = (downstream, values)  // released here, outside the lock
        subscription.cancel()
    }

    // MARK: Delivery

    /// Delivers buffered values within the demand, then the completion once due; or, when
    /// another thread is delivering, leaves them to it (see `SerialDelivery`: after
    /// queuing, `afterQueuing`, this thread may take the role over once the delivering thread
    /// has used its budget; it never waits for room, the buffer's own strategy handles that).
    /// - Returns: For `.keepFull`, the number of values delivered: what to ask upstream for.
    private func drain(afterQueuing: Bool) -> Subscribers.Demand {
        lock.acquire()
        guard handedOver else {
            lock.release()  // nothing is delivered before the subscription is handed over
            return .none
        }
        var delivered = 0
        delivery.serveLocked(
            me: currentThreadID(), lock: lock, afterQueuing: afterQueuing, mayWait: false, queued: { values.count },
            next: { nextLocked() },
            deliver: { item in
                switch item {
                case .value(let downstream, let value):
                    let more = downstream.receive(value)
                    delivered += 1
                    if more > 0 { lock.withLock { demand += more } }
                case .completion(let downstream, let completion, _):
                    downstream.receive(completion: completion)  // then the values and the upstream are let go
                }
            })
        return prefetch == .keepFull ? .max(delivered) : .none
    }

    private enum Queued {
        case value(Downstream, Input)
        /// With what the subscription lets go of after the lock: the values left, the upstream.
        case completion(Downstream, Subscribers.Completion<Failure>, (RingQueue<Input>, State))
    }

    /// Under the lock, for the delivery loop: the next value the demand allows, else the
    /// completion once due.
    private func nextLocked() -> DeliveryStep<Queued> {
        guard case .subscribed = state, let downstream else { return .idle }
        if demand > 0, let value = delivery.takeLocked(from: &values) {
            demand -= 1
            return .deliver(.value(downstream, value))
        }
        guard let completion = terminal else { return .idle }
        if case .finished = completion, demand == 0 { return .idle }
        let ended = (values, state)
        state = .ended
        self.downstream = nil
        values = RingQueue()
        return .last(.completion(downstream, completion, ended))
    }
}

extension Publisher {
    /// Keeps up to `size` values the subscriber has not asked for yet and hands them on as it
    /// asks.
    ///
    /// ![A marble diagram of buffer(size:prefetch:whenFull:), drawn from a run of it](marble-buffer)
    ///
    /// Values the subscriber has not asked for yet wait in the buffer, oldest first, and
    /// are delivered as it asks for more. Use it in front of a slow subscriber, for instance
    /// `events.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)`.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// var subscription: Subscription?
    /// let subscriber = AnySubscriber<Int, Never>(
    ///     receiveSubscription: { subscription = $0 },
    ///     receiveValue: { print($0); return .none })
    /// subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    /// subject.send(1)
    /// subject.send(2)
    /// subject.send(3)                  // the buffer is full: 1 is dropped
    /// subscription?.request(.max(5))   // Prints: 2, 3
    /// ```
    ///
    /// Demand: with `.keepFull` the upstream is asked for `size` values when it is
    /// subscribed and for one more each time a value is delivered; with `.byRequest` it is
    /// asked for unlimited values at once (as Apple's Combine does), and `whenFull` decides
    /// what happens to the values that do not fit.
    ///
    /// A failure is delivered as soon as the buffered values the subscriber has asked for
    /// are out; the others are dropped. `.finished` waits until the buffer is empty and the
    /// subscriber has outstanding demand.
    ///
    /// - Parameters:
    ///   - size: The maximum number of values to keep. A size of zero keeps none.
    ///   - prefetch: When to ask the upstream for values: `.keepFull` to fill the buffer at
    ///     once and keep it full, `.byRequest` to ask for everything at once.
    ///   - whenFull: What to do with a value that arrives when the buffer is full: drop it
    ///     (`.dropNewest`), drop the oldest buffered value (`.dropOldest`), or fail with the
    ///     error the closure of `.customError` returns, cancelling the upstream.
    /// - Returns: A ``Publishers/Buffer`` publisher that republishes this publisher's values
    ///   as the subscriber asks for them.
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
