// SPDX-License-Identifier: Apache-2.0
extension Subscribers {
    /// The last event of a publisher's stream: it either finished or failed with an error, and
    /// sends nothing after it.
    @frozen
    public enum Completion<Failure: Error>: Sendable {
        /// The publisher finished normally.
        case finished

        /// The publisher ended with the associated error.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}

extension Subscribers.Completion: Hashable where Failure: Hashable {}

extension Subscribers.Completion {
    private enum CodingKeys: String, CodingKey {
        case success
        case error
    }
}

extension Subscribers.Completion: Encodable where Failure: Encodable {
    /// Encodes the completion into `encoder`: a Boolean `success` key, and for a failure the
    /// error under an `error` key.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error if the failure can't be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .finished:
            try container.encode(true, forKey: .success)
        case .failure(let error):
            try container.encode(false, forKey: .success)
            try container.encode(error, forKey: .error)
        }
    }
}

extension Subscribers.Completion: Decodable where Failure: Decodable {
    /// Creates a completion by decoding it from `decoder`, in the form `encode(to:)` writes.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: An error if the `success` key is missing, or if a failure's `error` is
    ///   missing or can't be decoded.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .success) {
            self = .finished
        } else {
            self = .failure(try container.decode(Failure.self, forKey: .error))
        }
    }
}

extension Subscribers.Completion {
    /// The same completion with its failure converted by `transform`.
    @inlinable
    func mapError<NewFailure: Error>(_ transform: (Failure) -> NewFailure) -> Subscribers.Completion<NewFailure> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(transform(error))
        }
    }
}
