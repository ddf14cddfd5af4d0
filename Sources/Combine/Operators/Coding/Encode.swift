// SPDX-License-Identifier: Apache-2.0
/// A type that defines methods for encoding: `JSONEncoder` and `PropertyListEncoder`
/// conform to it, and so can your own encoders.
public protocol TopLevelEncoder {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Self.Output
}

extension Publishers {
    /// A publisher that encodes its upstream elements with an encoder; an encoding error
    /// cancels the upstream and becomes the failure.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's output type, such as `Data` for `JSONEncoder`.
        public typealias Output = Coder.Output
        /// Any error: the upstream's failure, or the error the encoder throws.
        public typealias Failure = any Error

        /// The publisher whose values are encoded.
        public let upstream: Upstream

        @usableFromInline let encoder: Coder

        /// Creates a publisher that encodes the elements of its upstream with an encoder.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Coder.Output == S.Input, S.Failure == any Error {
            let encoder = self.encoder
            upstream.subscribe(
                SteppingSubscriber<
                    TryTransformStepper<Upstream.Output, Coder.Output>, Upstream.Failure, S
                >(
                    TryTransformStepper { try encoder.encode($0) }, downstream: subscriber, name: "Encode",
                    edges: .lenient(values: .forward, completion: .forward, ownEnd: .forward, zeroDemandTraps: false),
                    reflection: .coding,
                    convertFailure: anyFailure))
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes each element from the upstream publisher with the given encoder.
    ///
    /// ![A marble diagram of encode(encoder:), drawn from a run of it](marble-encode)
    ///
    /// Each element is handed to the encoder's `encode(_:)`, and what it produces (`Data` for
    /// `JSONEncoder`) is published in the element's place. When encoding throws, the upstream
    /// is cancelled and the thrown error is sent as the failure; an upstream failure is passed
    /// on unchanged, as `any Error`. The subscriber's requests go straight upstream: one
    /// element per encoded value asked for.
    ///
    /// ```swift
    /// struct Trick: Codable { let name: String }
    ///
    /// let cancellable = Just(Trick(name: "Pledge"))
    ///     .encode(encoder: JSONEncoder())
    ///     .map { String(decoding: $0, as: UTF8.self) }
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// // Prints: {"name":"Pledge"}
    /// //         finished
    /// ```
    ///
    /// - Parameter encoder: The encoder to use, such as `JSONEncoder` or `PropertyListEncoder`
    ///   (any type conforming to `TopLevelEncoder`).
    /// - Returns: A `Publishers.Encode` publisher that publishes the encoder's output for each
    ///   upstream element and fails with `any Error`.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}
