// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that republishes a never-failing upstream under a different declared
    /// `Failure` type.
    ///
    /// The upstream can't fail (`Never`), so nothing changes at run time: it only lets the
    /// publisher meet one that can fail, for example in `combineLatest` or `flatMap`.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output

        /// The never-failing publisher whose events are passed on.
        public let upstream: Upstream

        /// Makes a publisher that republishes `upstream` with `Failure` as its failure type.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(
                FailureConverter<S, Never>(
                    downstream: subscriber, convert: neverFails, name: "SetFailureType"))
        }

        /// Changes the failure type again, over the same upstream.
        ///
        /// - Parameter failure: The new failure type.
        /// - Returns: A `Publishers.SetFailureType` over the same upstream with the new failure
        ///   type.
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
    /// Gives this never-failing publisher another `Failure` type, without changing its events.
    ///
    /// ![A marble diagram of setFailureType(to:), drawn from a run of it](marble-setFailureType)
    ///
    /// The upstream can't fail, so nothing changes at run time: elements, the completion,
    /// requests and the cancel pass straight through. Use it where a publisher that never
    /// fails must meet one that can, for example in `flatMap`, `combineLatest` or `merge`, or
    /// to match the type of a property.
    ///
    /// ```swift
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let typed: AnyPublisher<Int, URLError> = numbers
    ///     .setFailureType(to: URLError.self)
    ///     .eraseToAnyPublisher()
    /// let cancellable = typed.sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// numbers.send(1)
    /// numbers.send(completion: .finished)
    /// // Prints: 1, then finished
    /// ```
    ///
    /// - Parameter failureType: The error type to declare, for example `URLError.self`.
    /// - Returns: A ``Publishers/SetFailureType`` with the same elements and the new failure
    ///   type.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}
