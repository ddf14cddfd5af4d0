// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

/// In which order a concurrent `asyncMap` publishes its results.
public enum AsyncMapOrdering: Sendable, Hashable {
    /// In the order of the upstream values the results come from: a result that is ready
    /// waits for the results of earlier values.
    case inputOrder
    /// As each transform finishes.
    case completionOrder
}

extension Publisher {
    /// Transforms each value with an `async` closure, one value at a time, publishing the
    /// results in order.
    ///
    /// ```
    /// upstream:          -1-2-3-|
    /// asyncMap{ x*10 }:  --10--20--30|     (each after its transform returns)
    /// ```
    ///
    /// The upstream is asked for one value only when the subscriber has demand and no
    /// transform is running, so values are never transformed ahead of demand. Each transform
    /// runs in a task of its own; cancelling the subscription cancels the running task, and
    /// no result reaches a subscription that has been cancelled. The result finishes when the
    /// upstream has finished and the last transform has been published, and fails as soon as
    /// the upstream fails (cancelling the running transform).
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .asyncMap { id in await profiles.load(id) }
    ///     .sink { print($0.name) }
    /// // Prints the three names, in the order of the ids
    /// ```
    ///
    /// - Parameter transform: An `async` closure that takes a value and returns the value to
    ///   publish. It runs in a task, so it must be `@Sendable`.
    /// - Returns: A ``Publishers/AsyncMap`` publisher of the transformed values.
    public func asyncMap<T>(
        _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, maxConcurrent: 1, ordering: .inputOrder, transform: transform)
    }

    /// Transforms values with an `async` closure, running up to `maxConcurrent` transforms at
    /// once.
    ///
    /// ```
    /// upstream:                      -1-2-3-|
    /// maxConcurrent 2, .inputOrder:  ----10-20---30|   (20 may finish first; it waits for 10)
    /// ```
    ///
    /// At most `maxConcurrent` values are in the operator at a time (being transformed, or
    /// transformed and waiting to be published), and never more than the subscriber has
    /// demand for. With `.inputOrder` the results are published in the order of the upstream
    /// values; with `.completionOrder`, as each transform finishes. Cancellation, completion
    /// and failure are as for `asyncMap(_:)`: every running transform is
    /// cancelled with the subscription or on a failure.
    ///
    /// ```swift
    /// let cancellable = imageURLs.publisher
    ///     .asyncMap(maxConcurrent: 4, ordering: .inputOrder) { url in await thumbnail(for: url) }
    ///     .collect()
    ///     .sink { thumbnails in show(thumbnails) }   // in the order of imageURLs
    /// ```
    ///
    /// - Parameters:
    ///   - maxConcurrent: The most values transformed or waiting to be published at a time;
    ///     at least 1.
    ///   - ordering: Whether results keep the order of the upstream values (`.inputOrder`, the
    ///     default) or are published as they finish (`.completionOrder`).
    ///   - transform: An `async` closure that takes a value and returns the value to publish.
    /// - Returns: A ``Publishers/AsyncMap`` publisher of the transformed values.
    public func asyncMap<T>(
        maxConcurrent: Int, ordering: AsyncMapOrdering = .inputOrder,
        _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, maxConcurrent: maxConcurrent, ordering: ordering, transform: transform)
    }

    /// Transforms each value with a throwing `async` closure, one value at a time, publishing
    /// the results in order and failing with the first error the closure throws.
    ///
    /// ```
    /// upstream:               -1-2-3-|
    /// tryAsyncMap (2 throws): --10--#
    /// ```
    ///
    /// As `asyncMap(_:)`, and: when the closure throws, the upstream is
    /// cancelled and the publisher fails with that error.
    ///
    /// ```swift
    /// let cancellable = ids.publisher
    ///     .tryAsyncMap { id in try await api.user(id) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
    /// ```
    ///
    /// - Parameter transform: A throwing `async` closure that takes a value and returns the
    ///   value to publish.
    /// - Returns: A ``Publishers/TryAsyncMap`` publisher of the transformed values, failing with
    ///   `any Error`.
    public func tryAsyncMap<T>(
        _ transform: @escaping @Sendable (Output) async throws -> T
    ) -> Publishers.TryAsyncMap<Self, T> {
        Publishers.TryAsyncMap(upstream: self, maxConcurrent: 1, ordering: .inputOrder, transform: transform)
    }

    /// Transforms values with a throwing `async` closure, running up to `maxConcurrent`
    /// transforms at once, and fails with the first error the closure throws.
    ///
    /// ```
    /// upstream:                       -1-2-3-|
    /// maxConcurrent 3 (2 throws):     ---10-#   (.inputOrder: 1's result first, then the error)
    /// ```
    ///
    /// As `asyncMap(maxConcurrent:ordering:_:)`. With `.inputOrder` an error
    /// is published in its value's place: the results of earlier values are published first.
    /// With `.completionOrder` it is published as soon as it is thrown. Either way the other
    /// transforms are cancelled.
    ///
    /// ```swift
    /// let cancellable = ids.publisher
    ///     .tryAsyncMap(maxConcurrent: 3) { id in try await api.user(id) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
    /// ```
    ///
    /// - Parameters:
    ///   - maxConcurrent: The most values transformed or waiting to be published at a time;
    ///     at least 1.
    ///   - ordering: `.inputOrder` (the default) or `.completionOrder`.
    ///   - transform: A throwing `async` closure that takes a value and returns the value to
    ///     publish.
    /// - Returns: A ``Publishers/TryAsyncMap`` publisher of the transformed values.
    public func tryAsyncMap<T>(
        maxConcurrent: Int, ordering: AsyncMapOrdering = .inputOrder,
        _ transform: @escaping @Sendable (Output) async throws -> T
    ) -> Publishers.TryAsyncMap<Self, T> {
        Publishers.TryAsyncMap(upstream: self, maxConcurrent: maxConcurrent, ordering: ordering, transform: transform)
    }

    /// Transforms each value with an `async` closure, cancelling the transform of the
    /// previous value when a new one arrives: only the latest value's result is published.
    ///
    /// ```
    /// upstream:                 -a-b------c---|
    /// asyncMapLatest (slow):    ------B-------C|   (a's transform is cancelled by b)
    /// ```
    ///
    /// The `async` counterpart of `map` followed by `switchToLatest`: the upstream is asked for
    /// everything, each value starts a transform and cancels the one running, and a result is
    /// published when the subscriber has demand (a newer result replaces one still waiting).
    /// It finishes when the upstream has finished and the last transform has been published.
    ///
    /// ```swift
    /// let cancellable = searchText
    ///     .asyncMapLatest { text in await search(text) }
    ///     .sink { results in show(results) }   // a search typed over is cancelled
    /// ```
    ///
    /// - Parameter transform: An `async` closure that takes a value and returns the value to
    ///   publish.
    /// - Returns: A ``Publishers/AsyncMap`` publisher of the latest value's results.
    public func asyncMapLatest<T>(
        _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, strategy: .latest, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms the values of its upstream with an `async` closure; made by
    /// `asyncMap(_:)`, `asyncMap(maxConcurrent:ordering:_:)` and `asyncMapLatest(_:)`.
    public struct AsyncMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The `async` closure that transforms each value.
        public let transform: @Sendable (Upstream.Output) async -> Output

        let strategy: AsyncMapStrategy

        /// Creates a publisher that transforms values with `transform`, up to
        /// `maxConcurrent` at a time.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - maxConcurrent: The most values transformed or waiting to be published at a
        ///     time; at least 1.
        ///   - ordering: Whether results keep the order of the upstream values.
        ///   - transform: The `async` closure that transforms each value.
        public init(
            upstream: Upstream, maxConcurrent: Int, ordering: AsyncMapOrdering,
            transform: @escaping @Sendable (Upstream.Output) async -> Output
        ) {
            self.init(upstream: upstream, strategy: .bounded(maxConcurrent, ordering), transform: transform)
        }

        init(
            upstream: Upstream, strategy: AsyncMapStrategy,
            transform: @escaping @Sendable (Upstream.Output) async -> Output
        ) {
            if case .bounded(let limit, _) = strategy {
                precondition(limit >= 1, "asyncMap: maxConcurrent must be at least 1, not \(limit)")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// - Parameter subscriber: The subscriber that receives the transformed values.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                AsyncMapSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "AsyncMap", strategy: strategy, downstream: subscriber,
                    transform: { .success(await transform($0)) }, convertFailure: { $0 }))
        }
    }

    /// A publisher that transforms the values of its upstream with a throwing `async`
    /// closure; made by `tryAsyncMap(_:)` and `tryAsyncMap(maxConcurrent:ordering:_:)`.
    public struct TryAsyncMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: any error, from the upstream or the
        /// closure.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The throwing `async` closure that transforms each value.
        public let transform: @Sendable (Upstream.Output) async throws -> Output

        let strategy: AsyncMapStrategy

        /// Creates a publisher that transforms values with `transform`, up to
        /// `maxConcurrent` at a time.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose values are transformed.
        ///   - maxConcurrent: The most values transformed or waiting to be published at a
        ///     time; at least 1.
        ///   - ordering: Whether results keep the order of the upstream values.
        ///   - transform: The throwing `async` closure that transforms each value.
        public init(
            upstream: Upstream, maxConcurrent: Int, ordering: AsyncMapOrdering,
            transform: @escaping @Sendable (Upstream.Output) async throws -> Output
        ) {
            precondition(maxConcurrent >= 1, "tryAsyncMap: maxConcurrent must be at least 1, not \(maxConcurrent)")
            self.upstream = upstream
            self.strategy = .bounded(maxConcurrent, ordering)
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        ///
        /// - Parameter subscriber: The subscriber that receives the transformed values.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                AsyncMapSubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryAsyncMap", strategy: strategy, downstream: subscriber,
                    transform: { input in
                        do {
                            return .success(try await transform(input))
                        } catch {
                            return .failure(error)
                        }
                    },
                    convertFailure: { $0 }))
        }
    }
}

/// How an ``AsyncMapSubscription`` takes values and publishes results.
enum AsyncMapStrategy: Sendable {
    /// Up to this many values in the operator at a time, within demand, in this order.
    case bounded(Int, AsyncMapOrdering)
    /// Everything asked of the upstream; a new value cancels the running transform.
    case latest
}

/// One value in the operator: its transform's task, then its result.
private final class AsyncMapSlot<Output, Failure: Error>: @unchecked Sendable {
    var task: Task<Void, Never>?
    var result: Result<Output, Failure>?
}

/// The one implementation behind `asyncMap`, `tryAsyncMap` and `asyncMapLatest`: the
/// upstream's subscriber and the downstream's subscription. Values go to transforms running in
/// tasks; their results are published within the subscriber's demand, one call at a time
/// (whichever thread finds nobody publishing publishes, the others leave their result for it:
/// the serial-delivery engine's role and delivery loop, with the slots as its queue), with no
/// lock held while calling out.
private final class AsyncMapSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    typealias Failure = UpstreamFailure
    typealias Output = Downstream.Input
    typealias Result = Swift.Result<Output, Downstream.Failure>
    typealias Slot = AsyncMapSlot<Output, Downstream.Failure>

    private let name: String
    private let strategy: AsyncMapStrategy
    private let transform: @Sendable (Input) async -> Result
    private let convertFailure: (UpstreamFailure) -> Downstream.Failure
    private let lock = Lock()

    private var upstream: (any Subscription)?
    /// `nil` before the subscription and once the subscription has ended.
    private var downstream: Downstream?
    private var subscribed = false
    private var ended = false
    /// The subscriber's demand not yet met.
    private var demand = Subscribers.Demand.none
    /// Values asked of the upstream and not received yet.
    private var requested = 0
    private var askedEverything = false
    /// The values in the operator, in upstream order.
    private var slots: [Slot] = []
    private var upstreamFinished = false
    private var upstreamFailure: Downstream.Failure?
    /// Who publishes now: the serial-delivery engine's role (the results wait in ``slots``).
    private let delivery = SerialDelivery()

    let combineIdentifier = CombineIdentifier()

    var description: String { name }

    init(
        name: String, strategy: AsyncMapStrategy, downstream: Downstream,
        transform: @escaping @Sendable (Input) async -> Result,
        convertFailure: @escaping (UpstreamFailure) -> Downstream.Failure
    ) {
        self.name = name
        self.strategy = strategy
        self.downstream = downstream
        self.transform = transform
        self.convertFailure = convertFailure
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        // This thread holds the publishing role while the subscriber is in
        // `receive(subscription:)`: a transform finishing meanwhile on another thread leaves its
        // result to the delivery loop that runs after it, so no call overlaps that one.
        let handed = delivery.deliverOnce(
            me: currentThreadID(), lock: lock, evenIfBusy: true,
            beginLocked: { _ -> Downstream? in
                guard !subscribed, !ended, let downstream else { return nil }
                subscribed = true
                upstream = subscription
                return downstream
            },
            call: { $0.receive(subscription: self) }, endLocked: {}, next: { nextLocked() },
            deliver: { publish($0) })
        if !handed { subscription.cancel() }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.acquire()
        guard !ended else {
            lock.release()
            return .none
        }
        if requested > 0 { requested -= 1 }
        var superseded: [Slot] = []
        if case .latest = strategy {
            superseded = slots
            slots.removeAll()
        }
        let slot = Slot()
        slots.append(slot)
        let handed = UncheckedSendable(input)
        let transform = self.transform
        // The task runs a closure made here, so that it captures no type of the subscriber's.
        let work = UncheckedSendable({ [self] () async -> Void in
            let result = await transform(handed.value)
            complete(slot, with: result)
        })
        slot.task = Task { await work.value() }
        lock.release()
        for old in superseded { old.task?.cancel() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.acquire()
        guard !ended else {
            lock.release()
            return
        }
        switch completion {
        case .finished: upstreamFinished = true
        case .failure(let error): upstreamFailure = convertFailure(error)
        }
        upstream = nil
        lock.release()
        publish()
    }

    // MARK: Downstream

    func request(_ additional: Subscribers.Demand) {
        guard additional > 0 else { return }
        lock.acquire()
        guard !ended else {
            lock.release()
            return
        }
        demand += additional
        let ask = askLocked()
        let upstream = self.upstream
        lock.release()
        if ask > 0 { upstream?.request(ask) }
        publish()
    }

    func cancel() {
        lock.acquire()
        let released = end()
        lock.release()
        finishEnding(released)
    }

    // MARK: Transforms

    private func complete(_ slot: Slot, with result: Result) {
        lock.acquire()
        guard !ended, slots.contains(where: { $0 === slot }) else {
            lock.release()
            return
        }
        slot.result = result
        slot.task = nil
        lock.release()
        publish()
    }

    /// What to ask of the upstream now: room for more values within the limit and the
    /// subscriber's demand (bounded), or everything once (latest).
    private func askLocked() -> Subscribers.Demand {
        guard upstream != nil, !upstreamFinished, upstreamFailure == nil else { return .none }
        switch strategy {
        case .latest:
            if askedEverything { return .none }
            askedEverything = true
            return .unlimited
        case .bounded(let limit, _):
            let wanted = demand.max.map { min($0, limit) } ?? limit
            let room = wanted - slots.count - requested
            guard room > 0 else { return .none }
            requested += room
            return .max(room)
        }
    }

    // MARK: Publishing

    private enum Next {
        case value(Output, Downstream)
        case completion(Subscribers.Completion<Downstream.Failure>, Downstream, Released)
    }

    /// What the subscription lets go of when it ends: released and cancelled outside the lock.
    private struct Released {
        var tasks: [Task<Void, Never>] = []
        var upstream: (any Subscription)?
        var downstream: Downstream?
        var slots: [Slot] = []
    }

    /// Publishes what is ready, unless another thread is publishing (it will publish this
    /// too: its delivery loop looks again under the lock before it stops) or this thread is
    /// inside the subscriber (the loop it is called from goes on when the call returns).
    private func publish() {
        let me = currentThreadID()
        lock.acquire()
        guard !delivery.isDelivering(me: me) else {
            lock.release()
            return
        }
        delivery.serveLocked(
            me: me, lock: lock, afterQueuing: false, queued: { 0 }, next: { nextLocked() }, deliver: { publish($0) })
    }

    /// For the delivery loop, after the lock: calls the subscriber, and asks the upstream for
    /// what the demand it answers with makes room for.
    private func publish(_ next: Next) {
        switch next {
        case .completion(let completion, let downstream, let released):
            finishEnding(released)
            downstream.receive(completion: completion)
        case .value(let value, let downstream):
            let more = downstream.receive(value)
            lock.acquire()
            if !ended { demand += more }
            let ask = askLocked()
            let upstream = self.upstream
            lock.release()
            if ask > 0 { upstream?.request(ask) }
        }
    }

    /// Under the lock, for the delivery loop: the next result the demand and the order allow,
    /// or the completion.
    private func nextLocked() -> DeliveryStep<Next> {
        guard !ended, let downstream else { return .idle }
        if let failure = upstreamFailure {
            return .last(.completion(.failure(failure), downstream, end(cancelUpstream: false)))
        }
        let ordered: Bool
        if case .bounded(_, .completionOrder) = strategy { ordered = false } else { ordered = true }
        let ready = ordered ? (slots.first?.result == nil ? nil : 0) : slots.firstIndex { $0.result != nil }
        if let index = ready, let result = slots[index].result {
            switch result {
            case .failure(let error):
                return .last(.completion(.failure(error), downstream, end()))
            case .success(let value):
                guard demand > 0 else { break }
                slots.remove(at: index)
                demand -= 1
                return .deliver(.value(value, downstream))
            }
        }
        if upstreamFinished, slots.isEmpty {
            return .last(.completion(.finished, downstream, end(cancelUpstream: false)))
        }
        return .idle
    }

    /// Ends the subscription under the lock; returns what to let go of outside it.
    private func end(cancelUpstream: Bool = true) -> Released {
        guard !ended else { return Released() }
        ended = true
        var released = Released()
        released.tasks = slots.compactMap(\.task)
        released.slots = slots
        slots.removeAll()
        released.downstream = downstream
        downstream = nil
        if cancelUpstream { released.upstream = upstream }
        upstream = nil
        return released
    }

    private func finishEnding(_ released: Released) {
        for task in released.tasks { task.cancel() }
        released.upstream?.cancel()
    }
}
