extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements: the publisher behind `prefix(_:)`, `output(at:)` and `output(in:)`.
    ///
    /// ```
    /// upstream:  --a--b--c--d--e--|
    /// prefix(2): --a--b|
    /// output(in: 1..<3): -----b--c|
    /// ```
    ///
    /// Elements before the range are replaced by asking upstream for more. When the last
    /// element of the range has been published, the upstream subscription is cancelled and
    /// the subscriber receives `.finished`.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range.
        ///
        /// - Precondition: `range.lowerBound` is not negative.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "Publishers.Output: the range must not start below zero")
            self.upstream = upstream
            self.range = range
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
            let filter = SteppingSubscriber<Stepper, Failure, S>(
                Stepper(range: range), downstream: subscriber, name: "Output",
                edges: .lenient(values: .forward, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: false),
                reflection: .empty,
                convertFailure: sameFailure)
            filter.finishesOnSubscription = range.isEmpty
            upstream.subscribe(filter)
        }

        @usableFromInline
        struct Stepper: ValueStepper {
            @usableFromInline let range: CountableRange<Int>
            @usableFromInline var index = 0

            @inlinable
            init(range: CountableRange<Int>) {
                self.range = range
            }

            @inlinable
            mutating func step(_ input: Upstream.Output) -> ValueStep<Upstream.Output, Upstream.Failure> {
                defer { index += 1 }
                if index < range.lowerBound { return .skip }
                if index >= range.upperBound { return .finish }
                return index + 1 == range.upperBound ? .emitAndFinish(input) : .emit(input)
            }
        }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Republishes elements up to the specified maximum count, then cancels upstream and
    /// finishes.
    ///
    /// ```swift
    /// (1...10).publisher.prefix(3).sink { print($0) }   // 1, 2, 3
    /// ```
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        precondition(maxLength >= 0, "prefix(_:): the maximum length must not be negative")
        return output(in: 0..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published
    /// elements, then finishes.
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index...index)
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}
