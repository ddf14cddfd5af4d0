// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Publishers {
    /// A publisher that turns a publisher of ``Event`` values back into the events they stand
    /// for. Made by `dematerialize()`.
    ///
    /// ```
    /// upstream: --a--b--e--   a = .value(1), b = .value(2), e = .finished
    /// output:   --1--2--|     (the upstream is cancelled)
    /// ```
    public struct Dematerialize<Upstream: Publisher>: Publisher
    where Upstream.Output: EventConvertible, Upstream.Failure == Never {
        /// The kind of values this publisher publishes.
        public typealias Output = Upstream.Output.Output
        /// The error type carried by the upstream's failure events.
        public typealias Failure = Upstream.Output.Failure

        /// The publisher of events.
        public let upstream: Upstream

        /// Creates a publisher of the events `upstream` publishes as values.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DematerializeSubscription<Upstream, S>(downstream: subscriber))
        }
    }
}

extension Publisher where Output: EventConvertible, Failure == Never {
    /// Turns a publisher of ``Event`` values back into the events they stand for: each
    /// `.value` is published, a `.failure` fails the publisher and a `.finished` finishes it
    /// (either cancels the upstream).
    ///
    /// ![A marble diagram of dematerialize(), drawn from a run of it](marble-dematerialize)
    ///
    /// ```swift
    /// // upstream:      --'v1'--'v2'--f--   'v1' = .value(1), 'v2' = .value(2), f = .failure(e)
    /// // dematerialize: --1   --2   --#     (fails with e; the upstream is cancelled)
    /// ```
    ///
    /// Demand passes straight to the upstream. An upstream that finishes without a `.finished`
    /// event finishes it too.
    ///
    /// - Returns: A publisher of the events' values that ends as the events say.
    public func dematerialize() -> Publishers.Dematerialize<Self> {
        Publishers.Dematerialize(upstream: self)
    }
}

/// The subscriber `dematerialize()` puts on its upstream and the subscription it hands down:
/// values pass through with their demand; a terminal event cancels the upstream and
/// completes the subscriber.
private final class DematerializeSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, @unchecked Sendable
where
    Upstream.Output: EventConvertible, Upstream.Failure == Never,
    Downstream.Input == Upstream.Output.Output, Downstream.Failure == Upstream.Output.Failure
{
    typealias Input = Upstream.Output
    typealias Failure = Never

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    var description: String { "Dematerialize" }

    func receive(subscription: Subscription) {
        let downstream: Downstream? = lock.withLock {
            guard upstream == nil, let downstream = self.downstream else { return nil }
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
        switch input.event {
        case .value(let value):
            guard let downstream = lock.withLock({ downstream }) else { return .none }
            return downstream.receive(value)
        case .failure(let failure):
            end(with: .failure(failure), cancellingUpstream: true)
        case .finished:
            end(with: .finished, cancellingUpstream: true)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        end(with: .finished, cancellingUpstream: false)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        let (downstream, upstream): (Downstream?, Subscription?) = lock.withLock {
            defer {
                self.downstream = nil
                self.upstream = nil
            }
            return (self.downstream, self.upstream)
        }
        upstream?.cancel()
        withExtendedLifetime(downstream) {}  // released here, after the lock (its deinit may call back into this)
    }

    /// Completes the subscriber once and lets go of the upstream, cancelling it when it is
    /// still running (a terminal event arrived as a value).
    private func end(with completion: Subscribers.Completion<Downstream.Failure>, cancellingUpstream: Bool) {
        let (downstream, upstream): (Downstream?, Subscription?) = lock.withLock {
            defer {
                self.downstream = nil
                self.upstream = nil
            }
            return (self.downstream, self.upstream)
        }
        guard let downstream else { return }
        if cancellingUpstream { upstream?.cancel() }
        downstream.receive(completion: completion)
    }
}
