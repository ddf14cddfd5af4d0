// SPDX-License-Identifier: Apache-2.0
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
        /// The type of element it sends, the same as the upstream publisher's.
        public typealias Output = Upstream.Output
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that passes on only the upstream elements whose zero-based
        /// indices fall in `range`.
        ///
        /// - Precondition: `range.lowerBound` is not negative.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            apiPrecondition(range.lowerBound >= 0, "Publishers.Output: the range must not start below zero")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
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
    /// ![A marble diagram of prefix, drawn from a run of it](marble-prefix)
    ///
    /// The subscriber's requests go straight upstream. Once `maxLength` elements have been
    /// published, the upstream is cancelled and the subscriber receives `.finished`; an
    /// upstream that completes earlier has its completion passed on. `prefix(0)` cancels the
    /// upstream and finishes as soon as it is subscribed, without asking it for anything. The
    /// same as `output(in: 0..<maxLength)`.
    ///
    /// ```swift
    /// let cancellable = (1...10).publisher
    ///     .prefix(3)
    ///     .sink { print($0) }
    /// // Prints: 1, 2, 3
    /// ```
    ///
    /// - Parameter maxLength: The largest number of elements to republish; a negative value
    ///   traps.
    /// - Returns: A `Publishers.Output` publisher that republishes at most `maxLength`
    ///   elements.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        apiPrecondition(maxLength >= 0, "prefix(_:): the maximum length must not be negative")
        return output(in: 0..<maxLength)
    }

    /// Publishes a specific element, indicated by its index in the sequence of published
    /// elements, then finishes.
    ///
    /// ![A marble diagram of output(at:), drawn from a run of it](marble-output-at)
    ///
    /// Indices count from zero. Earlier elements are discarded, each replaced by a request
    /// upstream for one more, so they don't use up the subscriber's demand. Once the element
    /// has been published, the upstream is cancelled and the subscriber receives `.finished`.
    /// If the upstream completes first, its completion is passed on and nothing is published.
    ///
    /// ```swift
    /// let cancellable = ["a", "b", "c", "d"].publisher
    ///     .output(at: 2)
    ///     .sink { print($0) }
    /// // Prints: c
    /// ```
    ///
    /// - Parameter index: The zero-based index of the element to publish; a negative index
    ///   traps.
    /// - Returns: A `Publishers.Output` publisher that publishes at most one element.
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index...index)
    }

    /// Passes on only the upstream elements whose zero-based positions fall in `range`, and
    /// finishes after the last of them.
    ///
    /// ![A marble diagram of output(in:), drawn from a run of it](marble-output-in)
    ///
    /// Indices count from zero, and any range expression of `Int` works: `2..<5`, `2...4`,
    /// `3...` or `..<2`. Elements before the range are discarded, each replaced by a request
    /// upstream for one more; the subscriber's own requests go straight upstream. After the
    /// last element of the range, the upstream is cancelled and the subscriber receives
    /// `.finished`; an empty range finishes as soon as it is subscribed. If the upstream
    /// completes earlier, its completion is passed on.
    ///
    /// ```swift
    /// let cancellable = (0...9).publisher
    ///     .output(in: 3...5)
    ///     .sink { print($0) }
    /// // Prints: 3, 4, 5
    /// ```
    ///
    /// - Parameter range: The zero-based indices of the elements to publish; a range that
    ///   starts below zero traps.
    /// - Returns: A `Publishers.Output` publisher that publishes the elements whose indices
    ///   are in `range`.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }
}
