// SPDX-License-Identifier: Apache-2.0
// Built with the package trait `Logging` (Package.swift), which brings swift-log.
#if Logging
import Combine
import CombineSynchronization
import Logging
import Synchronization

extension Publishers {
    /// A publisher that writes each event passing it to a swift-log `Logger`: the sibling of
    /// `print(_:to:)` for programs that keep their logs through swift-log (servers, mostly).
    ///
    /// It logs the same events as `print`, with the same messages — `receive subscription:
    /// (…)`, `request unlimited`, `receive value: (1)`, `request max: (1) (synchronous)` for
    /// demand a subscriber returns, `receive finished`, `receive error: (…)`, `receive cancel`
    /// — each message starting with `prefix` and a colon when `prefix` is not empty, and
    /// carries metadata a log handler can index:
    ///
    /// - `combine.event`: `subscription`, `request`, `value`, `finished`, `failure` or `cancel`;
    /// - `combine.subscription`: the subscription's number, the same for every event of one
    ///   subscriber and never given to another in the process (an object's address would be
    ///   reused once the object is gone);
    /// - `combine.demand`: the demand of a request (also the demand returned for a value).
    ///
    /// Events are logged at `level`; a failure at `failureLevel`. Values and completions pass
    /// through unchanged.
    public struct Log<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are logged.
        public let upstream: Upstream
        /// The text each message starts with, followed by `: `; an empty prefix adds nothing.
        public let prefix: String
        /// Where the messages go.
        public let logger: Logger
        /// The level of every event but a failure.
        public let level: Logger.Level
        /// The level of a failure.
        public let failureLevel: Logger.Level

        /// Makes a publisher that logs `upstream`'s events through `logger`.
        ///
        /// - Parameters:
        ///   - upstream: The publisher whose events are logged.
        ///   - prefix: The text each message starts with; an empty prefix adds nothing.
        ///   - logger: Where the messages go.
        ///   - level: The level of every event but a failure.
        ///   - failureLevel: The level of a failure.
        public init(
            upstream: Upstream, prefix: String, logger: Logger, level: Logger.Level, failureLevel: Logger.Level
        ) {
            self.upstream = upstream
            self.prefix = prefix
            self.logger = logger
            self.level = level
            self.failureLevel = failureLevel
        }

        /// Subscribes `subscriber` to the upstream through a subscription that logs what passes.
        ///
        /// - Parameter subscriber: The subscriber that receives the upstream's events.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(LogSubscription(downstream: subscriber, log: self))
        }
    }
}

extension Publisher {
    /// Writes each event of this publisher to a swift-log `Logger`, as `print(_:to:)` writes it
    /// to a stream, with metadata naming the event, the subscription and the demand.
    ///
    /// Every subscription, request, value, completion and cancel becomes one message at `level`
    /// (a failure at `failureLevel`): `receive value: (1)`, `request max: (1)`, and so on, after
    /// `prefix` and a colon. The metadata keys are `combine.event`, `combine.subscription` and,
    /// for requests and the demand a subscriber returns for a value, `combine.demand`.
    ///
    /// ```swift
    /// import CombineLogging
    /// import Logging
    ///
    /// let logger = Logger(label: "orders")
    /// let cancellable = orders
    ///     .log("orders", to: logger, level: .info)
    ///     .sink { order in ship(order) }
    /// // On standard error through swift-log's default handler, each line after the time:
    /// // info orders: combine.event=subscription combine.subscription=1 [CombineLogging] orders: receive subscription: (…)
    /// ```
    ///
    /// - Parameters:
    ///   - prefix: The text each message starts with; an empty prefix adds nothing.
    ///   - logger: Where the messages go.
    ///   - level: The level of every event but a failure; `.debug` unless given.
    ///   - failureLevel: The level of a failure; `.error` unless given.
    /// - Returns: A publisher that passes this publisher's events on unchanged and logs each.
    public func log(
        _ prefix: String = "", to logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .error
    ) -> Publishers.Log<Self> {
        Publishers.Log(upstream: self, prefix: prefix, logger: logger, level: level, failureLevel: failureLevel)
    }
}

/// The subscription of one subscriber to a `Publishers.Log`: the upstream's subscriber and the
/// subscriber's subscription, writing each event as it passes.
///
/// Inlined into the client, so that a value passes specialised code: with the logger's level
/// above the operator's, a value costs the level comparison and the lock that guards the
/// subscriber, and nothing is built.
@usableFromInline
final class LogSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let log: Publishers.Log<Upstream>
    /// The upstream's subscription and the subscriber, both let go at the completion or the
    /// cancel (after which nothing more passes).
    @usableFromInline var upstream: Subscription?
    @usableFromInline var downstream: Downstream?
    @usableFromInline let lock = Lock()
    /// This subscription's number in the metadata.
    @usableFromInline let number: UInt64

    @inlinable
    init(downstream: Downstream, log: Publishers.Log<Upstream>) {
        self.log = log
        self.downstream = downstream
        number = subscriptionNumbers.add(1, ordering: .relaxed).newValue
    }

    @usableFromInline
    var description: String { "Log" }

    /// Whether a message at `level` would be written: checked before anything is built, so that
    /// a message the logger filters out costs a comparison.
    @inlinable
    @inline(__always)
    func writes(at level: Logger.Level) -> Bool {
        log.logger.logLevel <= level
    }

    /// Writes `message` (built only if the logger writes messages at `level`).
    @usableFromInline
    func write(
        _ message: @autoclosure () -> String, event: String, demand: Subscribers.Demand? = nil,
        level: Logger.Level? = nil
    ) {
        let level = level ?? log.level
        guard writes(at: level) else { return }
        var metadata: Logger.Metadata = [
            "combine.event": .string(event), "combine.subscription": .stringConvertible(number),
        ]
        if let demand { metadata["combine.demand"] = .string(Self.describe(demand)) }
        let text = log.prefix.isEmpty ? message() : "\(log.prefix): \(message())"
        log.logger.log(level: level, "\(text)", metadata: metadata)
    }

    /// A demand as `print` writes it: `unlimited` or `max: (n)`.
    private static func describe(_ demand: Subscribers.Demand) -> String {
        demand.max.map { "max: (\($0))" } ?? "unlimited"
    }

    @usableFromInline
    func receive(subscription: Subscription) {
        lock.acquire()
        guard upstream == nil, let downstream else {
            lock.release()
            subscription.cancel()  // a second subscription, or one after the end
            return
        }
        upstream = subscription
        lock.release()
        write("receive subscription: (\(subscription))", event: "subscription")
        downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let downstream = lock.withLock({ self.downstream }) else { return .none }
        if writes(at: log.level) { writeValue(input) }
        let demand = downstream.receive(input)
        if demand != .none, writes(at: log.level) { writeReturned(demand) }
        return demand
    }

    @usableFromInline
    func writeValue(_ input: Input) {
        write("receive value: (\(input))", event: "value")
    }

    @usableFromInline
    func writeReturned(_ demand: Subscribers.Demand) {
        write("request \(Self.describe(demand)) (synchronous)", event: "request", demand: demand)
    }

    @usableFromInline
    func receive(completion: Subscribers.Completion<Failure>) {
        guard let (downstream, _) = end() else { return }
        switch completion {
        case .finished:
            write("receive finished", event: "finished")
        case .failure(let error):
            write("receive error: (\(error))", event: "failure", level: log.failureLevel)
        }
        downstream.receive(completion: completion)
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        guard let upstream = lock.withLock({ self.upstream }) else { return }
        write("request \(Self.describe(demand))", event: "request", demand: demand)
        upstream.request(demand)
    }

    @usableFromInline
    func cancel() {
        guard let (_, upstream) = end() else { return }
        write("receive cancel", event: "cancel")
        upstream?.cancel()
    }

    /// Lets go of the subscriber and the upstream's subscription, returning them to the caller
    /// (released after the lock); `nil` when the subscription had ended already.
    private func end() -> (Downstream, Subscription?)? {
        lock.acquire()
        defer { lock.release() }
        guard let downstream = downstream.take() else { return nil }
        return (downstream, upstream.take())
    }
}

/// The numbers given to log subscriptions so far.
@usableFromInline
let subscriptionNumbers = Atomic<UInt64>(0)
#endif
