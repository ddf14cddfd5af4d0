extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// ```
    /// upstream:           --1--1--2--2--1--|
    /// removeDuplicates(): --1-----2-----1--|
    /// ```
    ///
    /// A repeated element is replaced by asking upstream for one more.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous
        /// element, as evaluated by a provided closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<DuplicateStepper<Output, Failure>, Failure, S>(
                    DuplicateStepper { .success(predicate($0, $1)) }, downstream: subscriber,
                    name: "RemoveDuplicates", edges: .strict, reflection: .downstream(state: "last"),
                    convertFailure: sameFailure))
        }
    }

    /// A publisher that publishes only elements that don't match the previous element, as
    /// evaluated by a provided error-throwing closure.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure to evaluate whether two elements are equivalent.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous
        /// element, as evaluated by a provided error-throwing closure.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let predicate = self.predicate
            upstream.subscribe(
                SteppingSubscriber<DuplicateStepper<Output, any Error>, Upstream.Failure, S>(
                    DuplicateStepper { previous, next in Result { try predicate(previous, next) } },
                    downstream: subscriber, name: "TryRemoveDuplicates", edges: .strict,
                    reflection: .downstream(state: "last"), convertFailure: anyFailure))
        }
    }
}

/// Remembers the last element published and skips the ones equivalent to it.
@usableFromInline
struct DuplicateStepper<Element, Failure: Error>: ValueStepper {
    @usableFromInline let isDuplicate: (Element, Element) -> Result<Bool, Failure>
    @usableFromInline var previous: Element?

    @inlinable
    var reflectedState: Any? { previous as Any }

    @inlinable
    init(isDuplicate: @escaping (Element, Element) -> Result<Bool, Failure>) {
        self.isDuplicate = isDuplicate
    }

    @inlinable
    mutating func step(_ input: Element) -> ValueStep<Element, Failure> {
        if let previous {
            switch isDuplicate(previous, input) {
            case .success(true): return .skip
            case .success(false): break
            case .failure(let error): return .fail(error)
            }
        }
        previous = input
        return .emit(input)
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// ```swift
    /// [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }   // 1, 2, 1
    /// ```
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided closure.
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }

    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided error-throwing closure.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
