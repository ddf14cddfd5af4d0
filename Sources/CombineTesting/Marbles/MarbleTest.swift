// SPDX-License-Identifier: Apache-2.0
import Combine
import Testing

/// Marble tests: publishers written as marble strings (see ``MarbleDiagram`` for the syntax),
/// played on a virtual clock, and publishers' output checked against a marble.
///
/// One tick of a marble is ``tick`` of virtual time on ``scheduler``, which starts at zero;
/// hand that scheduler to the operators under test.
///
/// ```swift
/// @Test func debounceWaitsForTwoQuietTicks() {
///     let m = MarbleTest()
///     let source = m.hot("-a-b-----c--|")
///     m.expect(source.debounce(for: .seconds(2), scheduler: m.scheduler), "-----b-----c|")
///     #expect(source.subscriptions == ["^"])    // it completed: not cancelled
/// }
/// ```
///
/// - ``hot(_:error:sourceLocation:)`` and ``cold(_:error:sourceLocation:)`` make the sources;
///   with no `values`, a marble's values are strings named as in the marble.
/// - ``expect(_:_:values:error:demand:sourceLocation:)`` (and its forms without `error`, for
///   publishers that cannot fail or fail with ``MarbleError``) subscribes at the current tick,
///   runs the clock and reports one test issue, drawing both timelines, if the output differs.
/// - ``record(_:ticks:demand:)`` returns what arrived, to print or inspect.
///
/// A malformed marble, a value name missing from `values` or a `#` in a marble that cannot
/// fail is reported as a test issue at the call (a publisher made from it plays nothing).
public final class MarbleTest: Sendable {
    /// The virtual clock the marbles play on; it starts at zero.
    public let scheduler: TestScheduler<VirtualTime, Never>

    /// The virtual time one tick of a marble stands for.
    public let tick: VirtualTime.Stride

    /// How many ticks `expect` keeps watching after the expected marble ends, to catch late
    /// events.
    public static let extraTicks = 3

    /// How many ticks `record` runs at most when it is given no tick count.
    public static let maximumTicks = 1000

    /// Creates a marble test whose ticks are `tick` long on a new scheduler at time zero.
    public init(tick: VirtualTime.Stride = .seconds(1)) {
        precondition(tick > .zero, "MarbleTest(tick:) needs a positive tick length")
        self.scheduler = TestScheduler()
        self.tick = tick
    }

    /// The tick the clock is on (an instant between two ticks counts as the earlier one).
    ///
    /// ```swift
    /// let m = MarbleTest(tick: .milliseconds(100))
    /// m.scheduler.advance(by: .milliseconds(250))
    /// m.currentTick     // 2
    /// ```
    public var currentTick: Int { scheduler.now.nanoseconds / tick.nanoseconds }

    /// Moves the clock on by `ticks` ticks, running everything due on the way; `advance(ticks: 0)`
    /// runs what is due now.
    ///
    /// ```swift
    /// let m = MarbleTest()
    /// let subscriber = TestSubscriber<String, MarbleError>()
    /// m.hot("a-b|").subscribe(subscriber)
    /// m.advance(ticks: 0)     // subscriber.values == ["a"]
    /// m.advance(ticks: 3)     // subscriber.values == ["a", "b"], then finished
    /// ```
    public func advance(ticks: Int = 1) {
        precondition(
            ticks >= 0, "MarbleTest.advance(ticks:) needs a non-negative count: virtual time only moves forward")
        scheduler.advance(by: VirtualTime.Stride(nanoseconds: tick.nanoseconds * ticks))
    }

    // MARK: Hot publishers

    /// A hot publisher of `marble`: one timeline, counted from virtual time zero (the `^`),
    /// shared by all subscribers; a subscriber without demand misses a value, as with a
    /// `PassthroughSubject`. See ``MarblePublisher``.
    ///
    /// ```swift
    /// let taps = m.hot("--a-^-b--c-#", values: ["a": 1, "b": 2, "c": 3], error: URLError(.timedOut))
    /// ```
    ///
    /// - Parameters:
    ///   - marble: The timeline (see ``MarbleDiagram``).
    ///   - values: The value of each name in the marble. When `Output` is `String`, a name
    ///     not listed stands for itself.
    ///   - error: The failure that `#` sends.
    ///   - sourceLocation: Where a malformed marble is reported; the caller's location by
    ///     default.
    /// - Returns: A hot ``MarblePublisher`` playing `marble` on ``scheduler``.
    public func hot<Output, Failure: Error>(
        _ marble: String, values: [String: Output] = [:], error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<Output, Failure> {
        publisher(.hot, marble, values: values, error: error, sourceLocation: sourceLocation)
    }

    /// A hot publisher of `marble` that cannot fail (a `#` in it is reported as an issue).
    ///
    /// ```swift
    /// let numbers = m.hot("-a-b-|", values: ["a": 1, "b": 2])   // MarblePublisher<Int, Never>
    /// ```
    public func hot<Output>(
        _ marble: String, values: [String: Output] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<Output, Never> {
        publisher(.hot, marble, values: values, error: nil, sourceLocation: sourceLocation)
    }

    /// A hot publisher of `marble` whose values are their names, failing with `error`.
    ///
    /// ```swift
    /// let letters = m.hot("-a-'bc'-#")    // "a" at tick 1, "bc" at 3, MarbleError() at 5
    /// ```
    public func hot(
        _ marble: String, error: MarbleError = MarbleError(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<String, MarbleError> {
        publisher(.hot, marble, values: [:], error: error, sourceLocation: sourceLocation)
    }

    // MARK: Cold publishers

    /// A cold publisher of `marble`: each subscriber gets its own timeline, starting on the
    /// tick it subscribes; values it has not requested wait for it, in order. Its marble may
    /// start with `-` and a `^` to align it, but nothing may happen before the `^`. See
    /// ``MarblePublisher``.
    ///
    /// ```swift
    /// let response = m.cold("--a|", values: ["a": user], error: URLError(.badServerResponse))
    /// ```
    ///
    /// - Parameters:
    ///   - marble: The timeline (see ``MarbleDiagram``).
    ///   - values: The value of each name in the marble. When `Output` is `String`, a name
    ///     not listed stands for itself.
    ///   - error: The failure that `#` sends.
    ///   - sourceLocation: Where a malformed marble is reported; the caller's location by
    ///     default.
    /// - Returns: A cold ``MarblePublisher`` playing `marble` on ``scheduler`` for each
    ///   subscriber.
    public func cold<Output, Failure: Error>(
        _ marble: String, values: [String: Output] = [:], error: Failure,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<Output, Failure> {
        publisher(.cold, marble, values: values, error: error, sourceLocation: sourceLocation)
    }

    /// A cold publisher of `marble` that cannot fail (a `#` in it is reported as an issue).
    ///
    /// ```swift
    /// let numbers = m.cold("a-b|", values: ["a": 1, "b": 2])   // MarblePublisher<Int, Never>
    /// ```
    public func cold<Output>(
        _ marble: String, values: [String: Output] = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<Output, Never> {
        publisher(.cold, marble, values: values, error: nil, sourceLocation: sourceLocation)
    }

    /// A cold publisher of `marble` whose values are their names, failing with `error`.
    ///
    /// ```swift
    /// let letters = m.cold("a-b|")    // each subscriber: "a" at once, "b" two ticks later
    /// ```
    public func cold(
        _ marble: String, error: MarbleError = MarbleError(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarblePublisher<String, MarbleError> {
        publisher(.cold, marble, values: [:], error: error, sourceLocation: sourceLocation)
    }

    private func publisher<Output, Failure: Error>(
        _ kind: MarblePublisher<Output, Failure>.Kind, _ marble: String, values: [String: Output], error: Failure?,
        sourceLocation: SourceLocation
    ) -> MarblePublisher<Output, Failure> {
        var timeline: MarbleTimeline<Output, Failure> = []
        do {
            let diagram = try MarbleDiagram(marble)
            if kind == .cold, let first = diagram.timeline.first, first.time < 0 {
                throw MarbleUsageError(
                    "the cold marble \(marble) has events before its '^': a cold timeline starts when it is subscribed")
            }
            timeline = try diagram.resolved(values: values, error: error)
        } catch {
            Issue.record(Comment(rawValue: String(describing: error)), sourceLocation: sourceLocation)
        }
        return MarblePublisher(kind, marble: marble, timeline: timeline, scheduler: scheduler, tick: tick)
    }

    // MARK: Recording

    /// Subscribes to `publisher` on the current tick, runs the clock tick by tick, and returns
    /// what arrived; then cancels the subscription unless the publisher completed.
    ///
    /// ```swift
    /// let m = MarbleTest()
    /// let delayed = m.hot("-a--b|").delay(for: .seconds(2), scheduler: m.scheduler)
    /// print(m.record(delayed))     // ---a--b|
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to subscribe to and record.
    ///   - ticks: How many ticks to record, the subscription's own included. `nil` records until
    ///     the publisher completes or nothing is left on the scheduler (at most
    ///     ``maximumTicks``).
    ///   - demand: Requested once, on subscription; `.none` requests nothing.
    /// - Returns: A ``MarbleRecording`` of the events that arrived, tick by tick.
    public func record<P: Publisher>(
        _ publisher: P, ticks: Int? = nil, demand: Subscribers.Demand = .unlimited
    ) -> MarbleRecording<P.Output, P.Failure> {
        let start = scheduler.now
        let tickLength = tick.nanoseconds
        let recorder = MarbleRecorder<P.Output, P.Failure>(demand: demand) { [scheduler] in
            start.distance(to: scheduler.now).nanoseconds / tickLength
        }
        publisher.subscribe(recorder)
        scheduler.advance()
        let limit = max(1, ticks ?? Self.maximumTicks)
        var recorded = 1
        while recorded < limit {
            if ticks == nil, recorder.isComplete || scheduler.pendingActionCount == 0 { break }
            scheduler.advance(to: start.advanced(by: VirtualTime.Stride(nanoseconds: tickLength * recorded)))
            recorded += 1
        }
        recorder.cancel()
        return recorder.recording(ticks: recorded)
    }
}

/// The events of a marble by their time in ticks from its time zero.
typealias MarbleTimeline<Output, Failure: Error> = [(time: Int, events: [MarbleEvent<Output, Failure>])]

/// A marble that parses but cannot be played as asked.
struct MarbleUsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension MarbleDiagram {
    /// The timeline with each name replaced by its value and `#` by `error`.
    func resolved<Output, Failure: Error>(
        values: [String: Output], error: Failure?
    ) throws(MarbleUsageError) -> MarbleTimeline<Output, Failure> {
        var timeline: MarbleTimeline<Output, Failure> = []
        for (time, names) in self.timeline {
            var events: [MarbleEvent<Output, Failure>] = []
            for event in names {
                switch event {
                case .value(let name):
                    guard let value = values[name] ?? (name as Any as? Output) else {
                        throw MarbleUsageError(
                            "the marble \(self) names a value '\(name)' that is not in values: \(values.keys.sorted())")
                    }
                    events.append(.value(value))
                case .finished:
                    events.append(.completion(.finished))
                case .failure:
                    guard let error else {
                        throw MarbleUsageError(
                            "the marble \(self) has a '#' but its publisher cannot fail (Failure is Never)")
                    }
                    events.append(.completion(.failure(error)))
                }
            }
            timeline.append((time, events))
        }
        return timeline
    }
}
