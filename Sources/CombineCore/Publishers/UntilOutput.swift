extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from a second publisher.
    ///
    /// ```
    /// upstream:                 --1--2--3--4--|
    /// other:                    -------x
    /// drop(untilOutputFrom:):   --------3--4--|
    /// ```
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it
        /// receives an element from another publisher.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, Other.Failure == S.Failure {
            GatedSubscription<Upstream, Other, S>(
                gate: .dropUntil, downstream: subscriber, name: "DropUntilOutput", convertTriggerFailure: sameFailure
            )
            .subscribe(upstream: upstream, trigger: other)
        }
    }

    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// ```
    /// upstream:                   --1--2--3--4--|
    /// other:                      -------x
    /// prefix(untilOutputFrom:):   --1--2-|
    /// ```
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an
        /// element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            GatedSubscription<Upstream, Other, S>(
                gate: .prefixUntil, downstream: subscriber, name: "PrefixUntilOutput", convertTriggerFailure: nil
            )
            .subscribe(upstream: upstream, trigger: other)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a
    /// second publisher.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    /// Republishes elements until another publisher emits an element.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
