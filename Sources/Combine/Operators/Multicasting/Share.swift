import CombineSynchronization

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple
    /// subscribers.
    ///
    /// ```swift
    /// let shared = expensiveRequest.share()
    /// shared.sink { ... }   // subscribes upstream once
    /// shared.sink { ... }   // shares that subscription
    /// ```
    ///
    /// The first subscriber subscribes upstream; later ones share that subscription and
    /// receive the values published after they joined. As Apple's: once the upstream has
    /// completed, a later subscriber receives only the completion (the upstream is not
    /// subscribed again, so `Deferred { Future { ... } }.share()` does its work once); once
    /// every subscriber has cancelled, the next subscriber subscribes upstream again.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        /// Apple's composition: one subject for the publisher's life, connected by
        /// `autoconnect`. Once the upstream has completed, a later subscriber receives the
        /// completion and does not subscribe upstream again; once every subscriber has
        /// cancelled, the next one does.
        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>>

        /// Creates a publisher that shares the output of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            self.inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            inner.subscribe(subscriber)
        }

        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
