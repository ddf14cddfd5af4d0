// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that writes one log line for each event that passes it, each line starting
    /// with `prefix` and a colon when `prefix` is not empty.
    ///
    /// ```swift
    /// [1].publisher.print("numbers").sink { _ in }
    /// // numbers: receive subscription: ([1])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive finished
    /// ```
    ///
    /// Demand returned by the subscriber for a value is logged as
    /// `request max: (1) (synchronous)` when it is not zero (`.none` logs nothing). Lines go to
    /// `stream`, or to standard output.
    public struct Print<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The text each log line starts with, followed by `: `; an empty prefix adds nothing.
        public let prefix: String

        /// The publisher whose events are logged.
        public let upstream: Upstream

        /// A stream for receiving the log messages; standard output when `nil`.
        public let stream: TextOutputStream?

        /// Makes a publisher that logs `upstream`'s events, each line starting with `prefix`,
        /// to `stream` or to standard output.
        public init(upstream: Upstream, prefix: String, to stream: TextOutputStream? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let log = PrintLog(prefix: prefix, stream: stream)
            let callbacks = EventCallbacks<Output, Failure>(
                subscription: { log.write("receive subscription: (\($0))") },
                output: { log.write("receive value: (\($0))") },
                demandReturned: {
                    // As Apple's: a value that asks for nothing more logs no request line.
                    if $0 != .none { log.write("request \(PrintLog.describe($0)) (synchronous)") }
                },
                completion: {
                    switch $0 {
                    case .finished: log.write("receive finished")
                    case .failure(let error): log.write("receive error: (\(error))")
                    }
                },
                cancel: { log.write("receive cancel") },
                request: { log.write("request \(PrintLog.describe($0))") })
            upstream.subscribe(
                EventHandlingSubscription(
                    downstream: subscriber, callbacks: callbacks, name: "Print", reportsAfterEnd: true))
        }
    }
}

/// Where `print` writes its lines.
private final class PrintLog: @unchecked Sendable {
    private let prefix: String
    private var target: Target?
    private let lock = Lock()

    /// The stream as a concrete `TextOutputStream`, so `print(_:to:)` can write to it: the
    /// stream then sees the writes Apple's does (the line and its terminator apart).
    private struct Target: TextOutputStream {
        var stream: TextOutputStream
        mutating func write(_ string: String) { stream.write(string) }
    }

    init(prefix: String, stream: TextOutputStream?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        self.target = stream.map(Target.init)
    }

    func write(_ message: String) {
        let line = prefix + message
        lock.withLock {
            if target != nil {
                Swift.print(line, to: &target!)
            } else {
                Swift.print(line)
            }
        }
    }

    static func describe(_ demand: Subscribers.Demand) -> String {
        demand.max.map { "max: (\($0))" } ?? "unlimited"
    }
}

extension Publisher {
    /// Logs each event that passes through, one line per event.
    ///
    /// ![A marble diagram of print(_:to:), drawn from a run of it](marble-print)
    ///
    /// One line is written for each subscription, request, value, completion and cancel
    /// that passes, which shows what a pipeline does and in what order:
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher
    ///     .print("numbers")
    ///     .sink { _ in }
    /// // Prints:
    /// // numbers: receive subscription: ([1, 2])
    /// // numbers: request unlimited
    /// // numbers: receive value: (1)
    /// // numbers: receive value: (2)
    /// // numbers: receive finished
    /// ```
    ///
    /// Demand the subscriber returns from receiving a value is logged as, for instance,
    /// `request max: (1) (synchronous)` (a returned `.none` is not logged), and a failure as
    /// `receive error: (...)`. Events pass through unchanged.
    ///
    /// - Parameters:
    ///   - prefix: Text that starts each line, followed by `: `. The default, an empty string,
    ///     adds nothing.
    ///   - stream: The `TextOutputStream` the lines are written to. The default, `nil`, writes
    ///     them to standard output.
    /// - Returns: A ``Publishers/Print`` publisher that republishes this publisher's events
    ///   and logs each of them.
    public func print(_ prefix: String = "", to stream: TextOutputStream? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}
