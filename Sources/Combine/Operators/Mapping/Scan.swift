// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that keeps a running result, updates it with `nextPartialResult` for each
    /// upstream value, and publishes every new running result.
    ///
    /// ```
    /// upstream:   --1--2--3--|
    /// scan(0,+):  --1--3--6--|
    /// ```
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are accumulated.
        public let upstream: Upstream

        /// The running result before the first upstream value; it is not published itself.
        public let initialResult: Output

        /// Called with the running result and the next upstream value; what it returns is
        /// published and becomes the new running result.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a scanning publisher.
        public init(
            upstream: Upstream, initialResult: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Upstream.Failure == S.Failure {
            upstream.subscribe(Inner(downstream: subscriber, result: initialResult, next: nextPartialResult))
        }

        /// Like Apple's, `scan` hands the upstream subscription straight downstream and keeps
        /// no lock: values arrive one at a time, so the running result is not shared.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: ForwardingSubscriber
        where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
            @usableFromInline typealias Input = Upstream.Output
            @usableFromInline typealias Failure = Upstream.Failure

            @usableFromInline let downstream: Downstream
            @usableFromInline @exclusivity(unchecked) var result: Output
            @usableFromInline let next: (Output, Upstream.Output) -> Output

            @usableFromInline var description: String { "Scan" }

            @usableFromInline
            var customMirror: Mirror {
                let children: [Mirror.Child] = [("downstream", downstream), ("result", result)]
                return Mirror(self, children: children)
            }

            @inlinable
            init(downstream: Downstream, result: Output, next: @escaping (Output, Upstream.Output) -> Output) {
                self.downstream = downstream
                self.result = result
                self.next = next
            }

            @inlinable
            func receive(_ input: Upstream.Output) -> Subscribers.Demand {
                result = next(result, input)
                return downstream.receive(result)
            }
        }
    }

    /// A publisher that keeps a running result, updates it with the throwing
    /// `nextPartialResult` for each upstream value, and publishes every new running result.
    ///
    /// A thrown error cancels the upstream and becomes the failure.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: one thrown by `nextPartialResult`, or the upstream's own failure.
        public typealias Failure = any Error

        /// The publisher whose values are accumulated.
        public let upstream: Upstream

        /// The running result before the first upstream value; it is not published itself.
        public let initialResult: Output

        /// Called with the running result and the next upstream value; what it returns is
        /// published and becomes the new running result, and a thrown error ends the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a scanning publisher with an error-throwing closure.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            let next = nextPartialResult
            upstream.subscribe(
                SteppingSubscriber<ScanStepper<Upstream.Output, Output, any Error>, Upstream.Failure, S>(
                    ScanStepper(value: initialResult) { value, input in Result { try next(value, input) } },
                    downstream: subscriber, name: "TryScan",
                    edges: .lenient(values: .forward, completion: .ignore, ownEnd: .ignore, zeroDemandTraps: false),
                    reflection: .status, convertFailure: anyFailure))
        }
    }
}

/// The running accumulation of `tryScan`.
@usableFromInline
struct ScanStepper<Input, Output, Failure: Error>: ValueStepper {
    @usableFromInline var value: Output
    @usableFromInline let next: (Output, Input) -> Result<Output, Failure>

    @inlinable
    var reflectedState: Any? { value }

    @inlinable
    init(value: Output, next: @escaping (Output, Input) -> Result<Output, Failure>) {
        self.value = value
        self.next = next
    }

    @inlinable
    mutating func step(_ input: Input) -> ValueStep<Output, Failure> {
        switch next(value, input) {
        case .success(let newValue):
            value = newValue
            return .emit(newValue)
        case .failure(let error):
            return .fail(error)
        }
    }
}

extension Publisher {
    /// Publishes a running result: each value is folded into it by `nextPartialResult`, and
    /// each new result is published.
    ///
    /// ![A marble diagram of scan, drawn from a run of it](marble-scan)
    ///
    /// For each element, `nextPartialResult` combines the running result (starting from
    /// `initialResult`) with the element; the new running result is both published and kept
    /// for the next element. Unlike `reduce`, every intermediate result is published, as the
    /// elements arrive. Each subscription starts again from `initialResult`. The completion,
    /// requests and the cancel pass straight through.
    ///
    /// ```swift
    /// let cancellable = (1...4).publisher
    ///     .scan(0, +)
    ///     .sink { print($0) }
    /// // Prints: 1, 3, 6, 10
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the first element; it is not published
    ///     itself.
    ///   - nextPartialResult: A closure that receives the running result and the next element
    ///     and returns the new running result.
    /// - Returns: A ``Publishers/Scan`` that publishes each running result.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T) -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Publishes a running result that the throwing `nextPartialResult` updates with each
    /// value, and fails with any error the closure throws.
    ///
    /// ![A marble diagram of tryScan(_:_:), drawn from a run of it](marble-tryScan)
    ///
    /// Works like `scan(_:_:)`, publishing every running result, except that the closure may
    /// throw: the thrown error cancels the upstream and ends the stream as a failure, and the
    /// failure type becomes `any Error` (an upstream failure arrives as it is). Requests go
    /// straight to the upstream.
    ///
    /// ```swift
    /// struct Overflow: Error {}
    ///
    /// let cancellable = [40, 50, 60].publisher
    ///     .tryScan(0) { total, next in
    ///         guard total + next <= 100 else { throw Overflow() }
    ///         return total + next
    ///     }
    ///     .sink(
    ///         receiveCompletion: { if case .failure(let error) = $0 { print("failed:", error) } },
    ///         receiveValue: { print($0) })
    /// // Prints: 40, 90, then failed: Overflow()
    /// ```
    ///
    /// - Parameters:
    ///   - initialResult: The running result before the first element; it is not published
    ///     itself.
    ///   - nextPartialResult: An error-throwing closure that receives the running result and
    ///     the next element and returns the new running result.
    /// - Returns: A ``Publishers/TryScan`` that publishes each running result and fails with
    ///   `any Error`.
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
