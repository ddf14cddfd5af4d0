// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher whose subscribers all share one subscription to the upstream, made when
    /// the first of them attaches.
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
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed to on behalf of every subscriber.
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

        /// Returns whether two share publishers are the same instance.
        ///
        /// - Parameters:
        ///   - lhs: A share publisher to compare.
        ///   - rhs: Another share publisher to compare.
        /// - Returns: `true` if `lhs` and `rhs` are the same object.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Returns a publisher whose subscribers all share a single subscription to this
    /// publisher.
    ///
    /// ![A marble diagram of share(), drawn from a run of it](marble-share)
    ///
    /// The first subscriber subscribes to this publisher; later subscribers share that
    /// subscription and receive only the values published after they joined. Use it to run
    /// expensive work, such as a network request, once for several subscribers.
    ///
    /// ```swift
    /// let source = PassthroughSubject<Int, Never>()
    /// let shared = source
    ///     .handleEvents(receiveSubscription: { _ in print("subscribed upstream") })
    ///     .share()
    /// let a = shared.sink { print("a", $0) }   // Prints: subscribed upstream
    /// let b = shared.sink { print("b", $0) }   // shares that subscription
    /// source.send(1)                            // Prints: a 1, b 1
    /// ```
    ///
    /// `share()` is `multicast(subject: PassthroughSubject())` followed by `autoconnect()`:
    /// the upstream is asked for unlimited values, and a subscriber without outstanding
    /// demand misses the values sent meanwhile. A publisher that completes at once, such as
    /// `[1, 2].publisher`, delivers everything to the first subscriber before a second can
    /// attach. Once the upstream has completed, a later subscriber receives just the
    /// completion; once every subscriber has cancelled, the next one subscribes upstream
    /// again. The result is a class: copies of it share the same subscription.
    ///
    /// Subscribers arriving on several threads at once share one upstream subscription here,
    /// and there is never more than one at a time; Apple's may subscribe upstream once per
    /// concurrent first subscriber (the article Differences from Apple's Combine lists this).
    ///
    /// - Returns: A ``Publishers/Share`` publisher that shares one subscription to this
    ///   publisher among its subscribers.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
