// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that publishes what the throwing `transform` returns for each upstream
    /// value, and fails with the error it throws.
    ///
    /// ```
    /// upstream:          --1--2--x--3--|
    /// tryMap(parse):     --1--2--#          (# : the thrown error; upstream is cancelled)
    /// ```
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: one thrown by `transform`, or the upstream's own failure.
        public typealias Failure = any Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream

        /// The closure that turns each upstream value into the value published, or throws to
        /// end the stream.
        public let transform: (Upstream.Output) throws -> Output

        /// Makes a publisher that publishes the throwing `transform` applied to each value of
        /// `upstream`.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
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
    /// Publishes the result of the throwing `transform` for each value, and fails with any
    /// error it throws.
    ///
    /// ![A marble diagram of tryMap(_:), drawn from a run of it](marble-tryMap)
    ///
    /// Each element goes through `transform` and the result is published in its place. When
    /// the closure throws, the upstream is cancelled and the error is the failure the
    /// subscriber receives; the failure type becomes `any Error` (an upstream failure arrives
    /// as it is). Requests go straight to the upstream. Calling `map` or `tryMap` on the
    /// result fuses the closures into one `Publishers.TryMap`.
    ///
    /// ```swift
    /// enum ParseError: Error { case notANumber }
    ///
    /// let cancellable = ["1", "x", "3"].publisher
    ///     .tryMap { text -> Int in
    ///         guard let number = Int(text) else { throw ParseError.notANumber }
    ///         return number
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: 1, then failed: notANumber ("3" is never read)
    /// ```
    ///
    /// - Parameter transform: A closure that receives one element and returns the value to
    ///   publish, or throws to end the stream with that error.
    /// - Returns: A ``Publishers/TryMap`` that publishes the transformed elements and fails
    ///   with `any Error`.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers.TryMap {
    /// Fuses a map into this try-map.
    ///
    /// ![A marble diagram of map(_:), drawn from a run of it](marble-TryMap-map)
    ///
    /// - Parameter transform: A closure applied to the result of this try-map's closure.
    /// - Returns: One ``Publishers/TryMap`` over the same upstream that applies both closures.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two try-maps into one.
    ///
    /// ![A marble diagram of tryMap(_:), drawn from a run of it](marble-TryMap-tryMap)
    ///
    /// - Parameter transform: An error-throwing closure applied to the result of this
    ///   try-map's closure.
    /// - Returns: One ``Publishers/TryMap`` over the same upstream that applies both closures.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.Map {
    /// Fuses a try-map into this map.
    ///
    /// ![A marble diagram of tryMap(_:), drawn from a run of it](marble-Map-tryMap)
    ///
    /// - Parameter transform: An error-throwing closure applied to the result of this map's
    ///   closure.
    /// - Returns: One ``Publishers/TryMap`` over the same upstream that applies both closures.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}
