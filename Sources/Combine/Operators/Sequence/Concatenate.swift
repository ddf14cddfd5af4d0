// SPDX-License-Identifier: Apache-2.0
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
        /// The type of element it sends, which the prefix and suffix publishers share.
        public typealias Output = Suffix.Output
        /// The type of error it fails with, which the prefix and suffix publishers share.
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
    /// Publishes the given values before the elements of this publisher.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-prepend)
    ///
    /// The values go out first, within the subscriber's demand. Only once they are all out is
    /// this publisher subscribed to, and it is asked for whatever demand is left. The same as
    /// `prepend(_:)` with a `Publishers.Sequence` of the values.
    ///
    /// ```swift
    /// let cancellable = [3, 4].publisher
    ///     .prepend(1, 2)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Parameter elements: The values to publish before this publisher's elements.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes `elements`, then this
    ///   publisher's elements and completion.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    /// Publishes the elements of the given sequence before the elements of this publisher.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-prepend)
    ///
    /// The sequence is read lazily, within the subscriber's demand. Only once it is exhausted
    /// is this publisher subscribed to, and it is asked for whatever demand is left; an endless
    /// sequence therefore means this publisher is never subscribed to.
    ///
    /// ```swift
    /// let cancellable = [3, 4].publisher
    ///     .prepend(1...2)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Parameter elements: The sequence whose elements to publish first.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes the sequence's elements,
    ///   then this publisher's elements and completion.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        prepend(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the elements of the given publisher before the elements of this publisher.
    ///
    /// ![A marble diagram of prepend(_:), drawn from a run of it](marble-prepend-publisher)
    ///
    /// `publisher` is subscribed to first and republished until it finishes; only then is this
    /// publisher subscribed to, and it is asked for whatever demand the subscriber has left.
    /// Elements this publisher would have produced earlier (a subject's, for example) are not
    /// seen. If `publisher` fails, the failure ends the stream; if it fails or never
    /// finishes, this publisher is never subscribed to.
    ///
    /// ```swift
    /// let cancellable = ["world", "!"].publisher
    ///     .prepend(Just("Hello"))
    ///     .sink { print($0) }
    /// // Prints: Hello, world, !
    /// ```
    ///
    /// - Parameter publisher: The publisher whose elements to publish first; its output and
    ///   failure types must match this publisher's.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes `publisher`'s elements,
    ///   then this publisher's elements and completion.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Publishes the given values after this publisher finishes.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-append)
    ///
    /// This publisher's elements are republished first. When it finishes, the values go out
    /// within the subscriber's remaining demand, followed by `.finished`. If this publisher
    /// fails, the failure is passed on and the values are never published. The same as
    /// `append(_:)` with a `Publishers.Sequence` of the values.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .append(3, 4)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Parameter elements: The values to publish after this publisher's elements.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes this publisher's
    ///   elements, then `elements`.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    /// Publishes the elements of the given sequence after this publisher finishes.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-append)
    ///
    /// This publisher's elements are republished first. When it finishes, the sequence is read
    /// lazily within the subscriber's remaining demand, and `.finished` follows its last
    /// element. If this publisher fails, the failure is passed on and the sequence is not
    /// read.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .append(3...4)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3, 4
    /// ```
    ///
    /// - Parameter elements: The sequence whose elements to publish last.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes this publisher's
    ///   elements, then the sequence's.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        append(Publishers.Sequence(sequence: elements))
    }

    /// Publishes the elements of the given publisher after this publisher finishes.
    ///
    /// ![A marble diagram of append(_:), drawn from a run of it](marble-append-publisher)
    ///
    /// This publisher's elements are republished first. `publisher` is subscribed to only
    /// when this one finishes, and is asked for whatever demand the subscriber has left; its
    /// completion ends the stream. Elements it would have produced earlier (a subject's, for
    /// example) are not seen. If this publisher fails, the failure is passed on and
    /// `publisher` is never subscribed to.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject
    ///     .append(Just(99))
    ///     .sink { print($0) }
    /// subject.send(1)
    /// subject.send(completion: .finished)
    /// // Prints: 1, 99
    /// ```
    ///
    /// - Parameter publisher: The publisher whose elements to publish last; its output and
    ///   failure types must match this publisher's.
    /// - Returns: A `Publishers.Concatenate` publisher that publishes this publisher's
    ///   elements, then `publisher`'s elements and completion.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
