import CombineSynchronization

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// The first subscriber connects it; when every subscriber has cancelled, the connection
    /// is cancelled too, and the next subscriber connects again. As Apple's, a subscriber that
    /// received the completion still counts until it cancels.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let refCount: ConnectionRefCount<Output, Failure>

        /// Creates a publisher that automatically connects to an upstream connectable
        /// publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
            refCount = ConnectionRefCount { upstream.connect() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            refCount.attach(subscriber, to: upstream, parent: self)
        }
    }
}

extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    ///
    /// The first subscriber connects; when the last one cancels, the connection is cancelled:
    ///
    /// ```swift
    /// Timer.publish(every: 1, on: .main, in: .default)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// ```
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
