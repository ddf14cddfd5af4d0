// SPDX-License-Identifier: Apache-2.0
/// A publisher that replays a fixed list of values and a completion to every subscriber.
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(2)
///     recording.receive(completion: .finished)
/// }
/// record.sink { print($0) }   // 1, 2
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher whose recording is filled in by the `record` closure.
    ///
    /// - Parameter record: A closure that records values into the recording it is given.
    ///   A recording that was not completed ends with `.finished`.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a publisher that replays `recording`.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a publisher that replays the values of `output` and then `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        subscriber.receiveElements(of: recording.output, then: recording.completion, isRecord: true)
    }

    /// The values and the completion a ``Record`` replays.
    public struct Recording {
        /// The type of values the recording holds: the record's `Output`.
        public typealias Input = Output

        private var values: [Output]
        private var ending: Subscribers.Completion<Failure>
        private var isCompleted: Bool

        /// The recorded values, in the order they are replayed.
        public var output: [Output] { values }

        /// The completion replayed after the values.
        public var completion: Subscribers.Completion<Failure> { ending }

        /// Creates a new, empty recording. It ends with `.finished` unless completed otherwise.
        public init() {
            values = []
            ending = .finished
            isCompleted = false
        }

        /// Creates a recording with the given output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            values = output
            ending = completion
            isCompleted = true
        }

        /// Sets the input to be recorded.
        ///
        /// - Precondition: The recording has not been completed.
        public mutating func receive(_ input: Record<Output, Failure>.Recording.Input) {
            apiPrecondition(!isCompleted, "Record.Recording: cannot receive a value after the completion")
            values.append(input)
        }

        /// Sets the completion.
        ///
        /// - Precondition: The recording has not been completed.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            apiPrecondition(!isCompleted, "Record.Recording: cannot receive a completion twice")
            ending = completion
            isCompleted = true
        }
    }
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    /// Creates a recording by decoding its outputs and its completion from `decoder`.
    ///
    /// - Parameter decoder: The decoder to read from; it must hold the `output` and
    ///   `completion` keys written by `encode(to:)`.
    /// - Throws: An error if the data is missing or can't be decoded.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the recording's outputs and completion into `encoder`, under the keys `output`
    /// and `completion`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: An error if a value can't be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording into `encoder`; the same as `encode(to:)`, under the name Apple's
    /// `Record.Recording` also offers.
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {}
