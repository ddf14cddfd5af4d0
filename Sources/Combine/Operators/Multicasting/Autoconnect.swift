import CombineSynchronization

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// The first subscriber connects it; when every subscriber has cancelled, the connection
    /// is cancelled too, and the next subscriber connects again. As Apple's, a subscriber that
    /// received the completion still counts until it cancels.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
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
    /// The first subscriber calls `connect()` for you, right after it has attached; when
    /// the last subscriber cancels, the connection is cancelled, and the next subscriber
    /// connects again. Use it when you do not need to attach several subscribers before the
    /// values start, as with a timer:
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .default)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// // Prints the current date every second while the main run loop runs
    /// ```
    ///
    /// Only a cancel counts a subscriber out: once the upstream has completed, a later
    /// subscriber receives that completion and does not connect again (as in Apple's
    /// Combine). Values and demand pass between each subscriber and the connectable
    /// publisher unchanged.
    ///
    /// - Returns: A ``Publishers/Autoconnect`` publisher that connects to this publisher when
    ///   its first subscriber attaches.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
