// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A connectable publisher over a passthrough subject: nothing flows until
    /// ``connect()``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher that subscribes to `upstream` when connected.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes to the upstream; cancel the result to disconnect.
        public func connect() -> Cancellable {
            inner.connect()
        }
    }
}

extension Publisher where Failure == Never {
    /// Returns a connectable publisher that holds back this publisher's values until
    /// `connect()` is called.
    ///
    /// ![A marble diagram of makeConnectable(), drawn from a run of it](marble-makeConnectable)
    ///
    /// Subscribers attach first; values flow only after `connect()`, so that all of them
    /// see the first value:
    ///
    /// ```swift
    /// var bag = Set<AnyCancellable>()
    /// let connectable = [1, 2, 3].publisher.makeConnectable()
    /// connectable.sink { print("a", $0) }.store(in: &bag)
    /// connectable.sink { print("b", $0) }.store(in: &bag)
    /// connectable.connect().store(in: &bag)
    /// // Prints: a 1, b 1, a 2, b 2, a 3, b 3
    /// ```
    ///
    /// The upstream is subscribed once, at `connect()`, by a `PassthroughSubject` that
    /// shares it among the subscribers: the subject asks it for unlimited values once any
    /// subscriber has asked for some, and a value reaches only the subscribers that have
    /// outstanding demand for it. Available only when `Failure` is `Never`; for a publisher
    /// that can fail, use `multicast(_:)` with a subject of your choice.
    ///
    /// - Returns: A ``Publishers/MakeConnectable`` publisher that subscribes to this
    ///   publisher when it is connected.
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
