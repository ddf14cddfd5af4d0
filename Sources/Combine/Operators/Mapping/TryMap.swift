extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    ///
    /// ```
    /// upstream:          --1--2--x--3--|
    /// tryMap(parse):     --1--2--#          (# : the thrown error; upstream is cancelled)
    /// ```
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms all elements from the upstream publisher with
        /// a provided error-throwing closure.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        @inlinable

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            upstream.subscribe(
                SteppingSubscriber<Stepper, Upstream.Failure, S>(
                    Stepper(transform: transform), downstream: subscriber, name: "TryMap",
                    edges: .lenient(values: .forward, completion: .ignore, ownEnd: .forward, zeroDemandTraps: false),
                    reflection: .empty, convertFailure: anyFailure))
        }

        @usableFromInline
        struct Stepper: ValueStepper {
            @usableFromInline let transform: (Upstream.Output) throws -> Output

            @inlinable
            init(transform: @escaping (Upstream.Output) throws -> Output) {
                self.transform = transform
            }

            @inlinable
            func step(_ input: Upstream.Output) -> ValueStep<Output, any Error> {
                do {
                    return .emit(try transform(input))
                } catch {
                    return .fail(error)
                }
            }
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing
    /// closure. A thrown error cancels the upstream and becomes the failure.
    ///
    /// ```swift
    /// ["1", "x"].publisher
    ///     .tryMap { guard let n = Int($0) else { throw ParseError() }; return n }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // 1, failure(ParseError())
    /// ```
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers.TryMap {
    /// Fuses a map into this try-map.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two try-maps into one.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.Map {
    /// Fuses a try-map into this map.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}
