// SPDX-License-Identifier: Apache-2.0
import Combine
import Testing

extension MarbleTest {
    /// Checks that `publisher`, subscribed on the current tick, delivers what `marble` draws,
    /// tick by tick; if not, reports one test issue that draws both timelines:
    ///
    /// ```
    /// marble mismatch:
    ///   expected: --a--b--|
    ///   actual:   --a---b-|
    ///                  ^ first difference at tick 5
    /// ```
    ///
    /// The clock runs for as many ticks as the marble has after its time zero (its `^`, or its
    /// first tick), plus ``extraTicks`` to catch late events; events must match in time and in
    /// order within a tick. Then the subscription is cancelled unless the publisher completed.
    ///
    /// ```swift
    /// let m = MarbleTest()
    /// let source = m.hot("-a--b--c|", values: ["a": 1, "b": 2, "c": 3], error: URLError(.timedOut))
    /// m.expect(source.map { $0 * 10 }, "-x--y--z|", values: ["x": 10, "y": 20, "z": 30], error: URLError(.timedOut))
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher under test; it is subscribed on the current tick.
    ///   - marble: The expected output (see ``MarbleDiagram``); it may be aligned under the
    ///     source's marble with spaces and a `^`, but nothing may happen before its `^`.
    ///   - values: The value of each name in `marble`; an actual value is drawn by its name
    ///     here, otherwise by `String(describing:)`. When `Output` is `String`, a name not
    ///     listed stands for itself.
    ///   - error: The failure that `#` expects.
    ///   - demand: Requested once, on subscription.
    ///   - sourceLocation: Where a mismatch or a malformed marble is reported; the caller's
    ///     location by default.
    public func expect<P: Publisher>(
        _ publisher: P, _ marble: String, values: [String: P.Output] = [:], error: P.Failure,
        demand: Subscribers.Demand = .unlimited, sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Output: Equatable, P.Failure: Equatable {
        check(publisher, marble, values: values, error: error, demand: demand, sourceLocation: sourceLocation)
    }

    /// Checks the output of a publisher that cannot fail against `marble` (see
    /// ``expect(_:_:values:error:demand:sourceLocation:)``).
    ///
    /// ```swift
    /// m.expect(m.cold("a-b|", values: ["a": 1, "b": 2]).map { $0 + 1 }, "x-y|", values: ["x": 2, "y": 3])
    /// ```
    public func expect<P: Publisher>(
        _ publisher: P, _ marble: String, values: [String: P.Output] = [:], demand: Subscribers.Demand = .unlimited,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Output: Equatable, P.Failure == Never {
        check(publisher, marble, values: values, error: nil, demand: demand, sourceLocation: sourceLocation)
    }

    /// Checks the output of a publisher failing with ``MarbleError`` against `marble`, a `#`
    /// meaning `MarbleError()` (see ``expect(_:_:values:error:demand:sourceLocation:)``).
    ///
    /// ```swift
    /// m.expect(m.hot("-a-b-#").filter { $0 != "a" }, "---b-#")
    /// ```
    public func expect<P: Publisher>(
        _ publisher: P, _ marble: String, values: [String: P.Output] = [:], demand: Subscribers.Demand = .unlimited,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where P.Output: Equatable, P.Failure == MarbleError {
        check(publisher, marble, values: values, error: MarbleError(), demand: demand, sourceLocation: sourceLocation)
    }

    private func check<P: Publisher>(
        _ publisher: P, _ marble: String, values: [String: P.Output], error: P.Failure?, demand: Subscribers.Demand,
        sourceLocation: SourceLocation
    ) where P.Output: Equatable, P.Failure: Equatable {
        do {
            let diagram = try MarbleDiagram(marble)
            if let first = diagram.timeline.first, first.time < 0 {
                throw MarbleUsageError(
                    "the expected marble \(marble) has events before its '^': the publisher is subscribed at '^'")
            }
            let expected = try diagram.resolved(values: values, error: error)
            let actual = record(
                publisher, ticks: diagram.tickCount - diagram.zeroIndex + Self.extraTicks, demand: demand)
            let names = values.sorted { $0.key < $1.key }
            let comparison = MarbleComparison(expected: diagram, events: expected, actual: actual) { value in
                names.first { $0.value == value }?.key ?? String(describing: value)
            }
            if !comparison.matches {
                Issue.record(Comment(rawValue: comparison.diagram), sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record(Comment(rawValue: String(describing: error)), sourceLocation: sourceLocation)
        }
    }
}

/// An expected marble set against a recording: whether they match, and the drawing of both
/// lines, aligned tick under tick, with a caret under the first difference.
struct MarbleComparison {
    let matches: Bool
    let diagram: String

    init<Output: Equatable, Failure: Equatable>(
        expected marble: MarbleDiagram, events: MarbleTimeline<Output, Failure>,
        actual: MarbleRecording<Output, Failure>, valueName: (Output) -> String
    ) {
        let length = marble.tickCount - marble.zeroIndex
        var expected = [[MarbleEvent<Output, Failure>]](repeating: [], count: length)
        for (time, tickEvents) in events { expected[time] = tickEvents }
        func expectedEvents(_ time: Int) -> [MarbleEvent<Output, Failure>] { time < length ? expected[time] : [] }
        func actualEvents(_ time: Int) -> [MarbleEvent<Output, Failure>] {
            time < actual.ticks.count ? actual.ticks[time] : []
        }

        let firstDifference = (0..<max(length, actual.ticks.count)).first { expectedEvents($0) != actualEvents($0) }
        guard let difference = firstDifference else {
            matches = true
            diagram = ""
            return
        }
        matches = false

        // One column per tick, the ticks before time zero included; each as wide as the wider
        // of its two symbols, so that each tick of one line stands above the same tick of the
        // other (the parser ignores the padding spaces).
        let actualSymbols = actual.tickSymbols(valueName: valueName)
        let lastActual = actual.ticks.lastIndex { !$0.isEmpty } ?? -1
        let actualEnd = actual.completion == nil ? Int.max : lastActual
        var columns = [(expected: String, actual: String)](repeating: ("-", "-"), count: marble.zeroIndex)
        for time in 0..<max(length, lastActual + 1, difference + 1) {
            let onCaret = time == 0 && marble.subscriptionIndex != nil
            let expectedSymbol =
                time >= length
                ? "" : onCaret ? "^" : MarbleNotation.tick(marble.ticks[marble.zeroIndex + time].map(\.marbleSymbol))
            let actualSymbol = time > actualEnd ? "" : time < actualSymbols.count ? actualSymbols[time] : "-"
            columns.append((expectedSymbol, onCaret && actualSymbol == "-" ? "^" : actualSymbol))
        }
        let widths = columns.map { max($0.expected.count, $0.actual.count) }
        func line(_ symbol: KeyPath<(expected: String, actual: String), String>) -> String {
            var text = zip(columns, widths).map { column, width in
                column[keyPath: symbol] + String(repeating: " ", count: width - column[keyPath: symbol].count)
            }.joined()
            while text.last == " " { text.removeLast() }
            return text
        }
        let differenceColumn = marble.zeroIndex + difference
        let caretOffset = widths[..<differenceColumn].reduce(0, +)
        var lines = [
            "marble mismatch:",
            "  expected: \(line(\.expected))",
            "  actual:   \(line(\.actual))",
            "            \(String(repeating: " ", count: caretOffset))^ first difference at tick \(difference)",
        ]
        if columns[differenceColumn].expected == columns[differenceColumn].actual {
            lines.append(
                "  at tick \(difference): expected \(Self.describe(expectedEvents(difference))), got \(Self.describe(actualEvents(difference)))"
            )
        }
        diagram = lines.joined(separator: "\n")
    }

    private static func describe<Output, Failure>(_ events: [MarbleEvent<Output, Failure>]) -> String {
        guard !events.isEmpty else { return "nothing" }
        return events.map { event in
            switch event {
            case .value(let value): "value \(value)"
            case .completion(.finished): "finished"
            case .completion(.failure(let error)): "failure \(error)"
            }
        }.joined(separator: ", ")
    }
}
