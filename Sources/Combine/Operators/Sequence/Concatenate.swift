extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another
    /// publisher: the publisher of `append` and `prepend`.
    ///
    /// ```
    /// prefix:       --1--2--|
    /// suffix:                --3--|
    /// concatenated: --1--2----3--|
    /// ```
    ///
    /// The suffix is subscribed to only after the prefix finishes, and inherits the
    /// subscriber's outstanding demand. A failure of the prefix ends the stream.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        /// The kind of values published by this publisher.
        public typealias Output = Suffix.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from
        /// the suffix publisher.
        public let prefix: Prefix

        /// The publisher to republish only after the prefix publisher finishes.
        public let suffix: Suffix

        /// Creates a concatenation publisher composed of a prefix publisher and a suffix
        /// publisher.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
            let suffix = self.suffix
            let inner = SuccessionSubscription<Prefix, Suffix, S>(
                downstream: subscriber, name: "Concatenate", edges: .lenient, convertFailure: sameFailure
            ) { completion in
                guard case .finished = completion else { return .complete(completion) }
                return .switchTo(suffix)
            }
            prefix.subscribe(inner.firstSubscriber)
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publisher {
    /// Prefixes a publisher's output with the specified values.
    ///
    /// ```swift
    /// [3, 4].publisher.prepend(1, 2).sink { print($0) }   // 1, 2, 3, 4
    /// ```
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    /// Prefixes a publisher's output with the specified sequence.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Appends a publisher's output with the specified elements.
    ///
    /// ```swift
    /// [1, 2].publisher.append(3, 4).sink { print($0) }   // 1, 2, 3, 4
    /// ```
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    /// Appends a publisher's output with the specified sequence.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
