// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that passes its upstream's values and `.finished` through, and stops the
    /// program if the upstream fails.
    ///
    /// Use it where a failure means a programming error: the trap message holds the
    /// prefix and the error, and names the file and line of the operator.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// This publisher never fails.
        public typealias Failure = Never

        /// The publisher that is expected never to fail.
        public let upstream: Upstream

        /// Text put in front of the trap message; nothing is added when it is empty.
        public let prefix: String

        /// The file reported with the trap, normally the file of the `assertNoFailure` call.
        public let file: StaticString

        /// The line reported with the trap, normally the line of the `assertNoFailure` call.
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
    /// Republishes this publisher's values, treating a failure as a programming error that
    /// stops the program.
    ///
    /// ![A marble diagram of assertNoFailure(_:file:line:), drawn from a run of it](marble-assertNoFailure)
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
