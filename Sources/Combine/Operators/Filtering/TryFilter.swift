extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    ///
    /// A rejected element is replaced by asking upstream for one more; a thrown error cancels
    /// the upstream and becomes the failure.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes all elements that match a provided
        /// error-throwing closure.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == any Error {
            let isIncluded = self.isIncluded
            upstream.subscribe(
                SteppingSubscriber<
                    TryTransformStepper<Upstream.Output, Upstream.Output>, Upstream.Failure, S
                >(
                    TryTransformStepper { try isIncluded($0) ? $0 : nil }, downstream: subscriber, name: "TryFilter",
                    edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }

    /// A publisher that republishes all non-`nil` results of calling an error-throwing
    /// closure with each received element.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives values from the upstream publisher and
        /// returns optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes all non-`nil` results of calling an
        /// error-throwing closure with each received element.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(
                SteppingSubscriber<TryTransformStepper<Upstream.Output, Output>, Upstream.Failure, S>(
                    TryTransformStepper(transform: transform), downstream: subscriber, name: "TryCompactMap",
                    edges: .strict, reflection: .downstream(state: nil),
                    convertFailure: anyFailure))
        }
    }
}

/// An error-throwing transform to an optional: `nil` skips, a value is emitted, a thrown
/// error fails. The stepper of `tryFilter` and `tryCompactMap`.
@usableFromInline
struct TryTransformStepper<Input, Output>: ValueStepper {
    @usableFromInline let transform: (Input) throws -> Output?

    @inlinable
    init(transform: @escaping (Input) throws -> Output?) {
        self.transform = transform
    }

    @inlinable
    func step(_ input: Input) -> ValueStep<Output, any Error> {
        do {
            guard let output = try transform(input) else { return .skip }
            return .emit(output)
        } catch {
            return .fail(error)
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }

    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.Filter {
    /// Fuses a try-filter into this filter.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// Fuses a filter into this try-filter.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// Fuses two try-filters into one.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryCompactMap {
    /// Fuses a compact-map into this try-compact-map.
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
    }
}
