// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publishers {
    /// A publisher that publishes every event of its upstream — values, the failure, the
    /// finish — as an ``Event`` value, and never fails. Made by `materialize()`.
    ///
    /// ```
    /// upstream: --1--2--#     (fails with e)
    /// output:   --v--v--[f|]  v = .value, f = .failure(e), then finished
    /// ```
    public struct Materialize<Upstream: Publisher>: Publisher {
        /// The kind of values this publisher publishes.
        public typealias Output = Event<Upstream.Output, Upstream.Failure>
        /// This publisher never fails.
        public typealias Failure = Never

        /// The publisher whose events are published.
        public let upstream: Upstream

        /// Creates a publisher of the events of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            // Values become `.value`; a finish appends `.finished`; a failure is caught and
            // replaced by a last `.failure`. Each waits for demand like any value.
            upstream
                .map { Output.value($0) }
                .append(Output.finished)
                .catch { Just(Output.failure($0)) }
                .subscribe(subscriber)
        }
    }
}

extension Publisher {
    /// Publishes every event of the publisher as an ``Event`` value: `.value` for each value,
    /// then `.finished` or `.failure` as a last value, then finishes. It never fails.
    ///
    /// ![A marble diagram of materialize(), drawn from a run of it](marble-materialize)
    ///
    /// ```swift
    /// // upstream:    --1--2--|        --1--#
    /// // materialize: --v--v--[e|]     --v--[f|]    v = .value, e = .finished, f = .failure
    /// ```
    ///
    /// The last event waits for demand like any value: a subscriber that asked for two values
    /// of a publisher of two gets the values, and the `.finished` event when it asks once more.
    /// `dematerialize()` turns the events back.
    ///
    /// - Returns: A publisher of the upstream's events.
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}
