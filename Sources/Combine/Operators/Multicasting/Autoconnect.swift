// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that connects its connectable upstream when it gets a subscriber, and
    /// disconnects it when the last subscriber cancels.
    ///
    /// The first subscriber connects it; when every subscriber has cancelled, the connection
    /// is cancelled too, and the next subscriber connects again. As Apple's, a subscriber that
    /// received the completion still counts until it cancels.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The connectable publisher that is connected and disconnected.
        public final let upstream: Upstream

        private let refCount: ConnectionRefCount<Output, Failure>

        /// Creates a publisher that calls `upstream.connect()` on behalf of its subscribers.
        public init(upstream: Upstream) {
            self.upstream = upstream
            refCount = ConnectionRefCount { upstream.connect() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            refCount.subscribe(subscriber, to: upstream, parent: self)
        }
    }
}

extension ConnectablePublisher {
    /// Returns a publisher that connects and disconnects this connectable publisher as
    /// subscribers come and go.
    ///
    /// ![A marble diagram of autoconnect(), drawn from a run of it](marble-autoconnect)
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
