extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise
    /// republishes all received input.
    ///
    /// Use it where a failure means a programming error: the trap message holds the
    /// prefix and the error, and names the file and line of the operator.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The string used at the beginning of the fatal error message.
        public let prefix: String

        /// The filename used in the error message.
        public let file: StaticString

        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that raises a fatal error upon receiving any failure.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S) where Upstream.Output == S.Input, S.Failure == Never {
            let (prefix, file, line) = (self.prefix, self.file, self.line)
            upstream.subscribe(
                FailureConverter<S, Upstream.Failure>(
                    downstream: subscriber,
                    convert: { error in
                        let start = prefix.isEmpty ? "" : "\(prefix): "
                        fatalError("\(start)assertNoFailure: unexpected failure: \(error)", file: file, line: line)
                    }, name: "AssertNoFailure", reflected: [("file", file), ("line", line), ("prefix", prefix)]))
        }
    }
}

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
    /// received input.
    ///
    /// Use it where a failure would be a programming error, for instance decoding data
    /// bundled with the app:
    /// `tricks.decode(type: Trick.self, decoder: JSONDecoder()).assertNoFailure("decoding")`.
    /// The result's `Failure` is `Never`, so it can be used with `sink(receiveValue:)` and
    /// `assign(to:on:)`.
    ///
    /// ```swift
    /// struct Unexpected: Error {}
    /// let subject = PassthroughSubject<Int, Unexpected>()
    /// let cancellable = subject
    ///     .assertNoFailure("numbers")
    ///     .sink { print($0) }
    /// subject.send(1)   // Prints: 1
    /// subject.send(completion: .failure(Unexpected()))
    /// // Stops the program: "numbers: assertNoFailure: unexpected failure: Unexpected()"
    /// ```
    ///
    /// Values, demand and `.finished` pass through unchanged. The check is made in release
    /// builds too.
    ///
    /// - Parameters:
    ///   - prefix: A string at the start of the fatal error message; empty by default.
    ///   - file: The file name reported with the fatal error; the caller's file by default.
    ///   - line: The line number reported with the fatal error; the caller's line by
    ///     default.
    /// - Returns: A ``Publishers/AssertNoFailure`` publisher that republishes this
    ///   publisher's values and never fails.
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
