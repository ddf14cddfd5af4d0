// SPDX-License-Identifier: Apache-2.0
/// A type that defines methods for decoding: `JSONDecoder` and `PropertyListDecoder`
/// conform to it, and so can your own decoders.
public protocol TopLevelDecoder {
    /// The type this decoder accepts.
    associatedtype Input

    /// Decodes an instance of the indicated type.
    func decode<T: Decodable>(_ type: T.Type, from: Self.Input) throws -> T
}

extension Publishers {
    /// A publisher that decodes its upstream elements with a decoder; a decoding error
    /// cancels the upstream and becomes the failure.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's failure, or the error the decoder throws.
        public typealias Failure = any Error

        /// The publisher whose values are decoded.
        public let upstream: Upstream

        @usableFromInline let decoder: Coder

        /// Creates a publisher that decodes the elements of its upstream with a decoder.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches the specified subscriber to this publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == any Error {
            let decoder = self.decoder
            upstream.subscribe(
                SteppingSubscriber<TryTransformStepper<Upstream.Output, Output>, Upstream.Failure, S>(
                    TryTransformStepper { try decoder.decode(Output.self, from: $0) }, downstream: subscriber,
                    name: "Decode",
                    edges: .lenient(values: .forward, completion: .forward, ownEnd: .forward, zeroDemandTraps: false),
                    reflection: .coding, convertFailure: anyFailure))
        }
    }
}

extension Publisher {
    /// Decodes each element from the upstream publisher into a value of the given type.
    ///
    /// ![A marble diagram of decode(type:decoder:), drawn from a run of it](marble-decode)
    ///
    /// Each element (`Data` for `JSONDecoder`) is handed to the decoder's `decode(_:from:)`,
    /// and the decoded value is published in its place. When decoding throws (malformed input,
    /// a missing key, a type mismatch), the upstream is cancelled and the thrown error is sent
    /// as the failure; an upstream failure is passed on unchanged, as `any Error`. The
    /// subscriber's requests go straight upstream.
    ///
    /// ```swift
    /// struct Trick: Codable { let name: String }
    ///
    /// let cancellable = Just(Data(#"{"name":"Pledge"}"#.utf8))
    ///     .decode(type: Trick.self, decoder: JSONDecoder())
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.name) })
    /// // Prints: Pledge
    /// //         finished
    /// ```
    ///
    /// - Parameters:
    ///   - type: The `Decodable` type to decode each element into.
    ///   - decoder: The decoder to use, such as `JSONDecoder` or `PropertyListDecoder` (any type
    ///     conforming to `TopLevelDecoder` whose `Input` is this publisher's `Output`).
    /// - Returns: A `Publishers.Decode` publisher that publishes the decoded values and fails
    ///   with `any Error`.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
