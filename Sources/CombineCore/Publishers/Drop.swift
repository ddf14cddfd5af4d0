extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later
    /// elements.
    ///
    /// ```
    /// upstream:      --1--2--3--4--|
    /// dropFirst(2):  --------3--4--|
    /// ```
    ///
    /// The subscriber's first request is raised by `count`, so the dropped elements don't
    /// use up its demand.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits a specified number of elements before republishing
        /// later elements.
        ///
        /// - Precondition: `count` is not negative.
        public init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "dropFirst(_:): the count must not be negative")
            self.upstream = upstream
            self.count = count
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                FilteringSubscriber<Stepper, Failure, S>(
                    Stepper(count: count), downstream: subscriber, name: "Drop", convertFailure: sameFailure))
        }

        @usableFromInline
        struct Stepper: FilterStepper {
            @usableFromInline let count: Int
            @usableFromInline var dropped = 0

            @inlinable
            init(count: Int) {
                self.count = count
            }

            @inlinable
            var extraInitialDemand: Int { count }

            @inlinable
            mutating func step(_ input: Upstream.Output) -> FilterStep<Upstream.Output, Upstream.Failure> {
                guard dropped < count else { return .emit(input) }
                dropped += 1
                return .drop
            }
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// ```swift
    /// (1...4).publisher.dropFirst(2).sink { print($0) }   // 3, 4
    /// ```
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
