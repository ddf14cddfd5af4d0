// SPDX-License-Identifier: Apache-2.0
/// A parsed marble string: what happens on each tick of virtual time.
///
/// A marble string draws a timeline from left to right, one character (or group) per tick:
///
/// | symbol | meaning |
/// | --- | --- |
/// | `-` | a tick on which nothing happens |
/// | `a`, `7` | a value named by a single letter or digit |
/// | `'name'` | a value with a longer name (any characters but `'`) |
/// | `\|` | the publisher finishes |
/// | `#` | the publisher fails |
/// | `^` | time zero, where the test subscribes (a tick of its own, with no events) |
/// | `[ab\|]` | several events on the same tick, in order |
/// | space | nothing: spaces only align one marble under another |
///
/// Every `-`, value, `|`, `#`, `^` and every whole `[...]` group occupies one tick. Time zero
/// is the `^` when there is one, otherwise the first tick; ticks left of `^` come before the
/// subscription (their times are negative). Nothing but `-`, spaces and `^` may follow a
/// completion.
///
/// ```swift
/// let diagram = try MarbleDiagram("-a-^-b-[cd|]")
/// diagram.tickCount           // 8
/// diagram.zeroIndex           // 3
/// diagram.timeline            // [(-2, [.value("a")]), (2, [.value("b")]),
///                             //  (4, [.value("c"), .value("d"), .finished])]
/// try MarbleDiagram("a 'bc' |").ticks  // [[.value("a")], [.value("bc")], [.finished]]
/// ```
///
/// Malformed strings throw a ``MarbleSyntaxError`` naming the column at fault: an unclosed
/// `[` or `'`, a nested group, `-` or `^` inside a group, an empty group or name, a second
/// `^`, an event after the completion, an unknown character.
public struct MarbleDiagram: Hashable, Sendable, CustomStringConvertible {
    /// Something a marble says happens on a tick.
    public enum Event: Hashable, Sendable {
        /// A value, by its name in the marble.
        case value(String)
        /// The publisher finishes (`|`).
        case finished
        /// The publisher fails (`#`).
        case failure
    }

    /// The events of each tick, from the first character of the marble on (the `^` tick has
    /// none).
    public let ticks: [[Event]]

    /// The index in ``ticks`` of the `^`, if the marble has one.
    public let subscriptionIndex: Int?

    /// Parses a marble string.
    ///
    /// - Throws: ``MarbleSyntaxError`` when the string breaks one of the rules above.
    public init(_ marble: String) throws(MarbleSyntaxError) {
        var parser = Parser(marble: marble)
        try parser.parse()
        ticks = parser.ticks
        subscriptionIndex = parser.subscriptionIndex
    }

    /// How many ticks the marble spans, `^` included.
    public var tickCount: Int { ticks.count }

    /// The index in ``ticks`` of time zero: the `^`, or the first tick when there is none.
    public var zeroIndex: Int { subscriptionIndex ?? 0 }

    /// The ticks on which something happens, each with its time in ticks relative to time zero
    /// (negative before `^`), in order.
    public var timeline: [(time: Int, events: [Event])] {
        ticks.indices.compactMap { index in
            ticks[index].isEmpty ? nil : (index - zeroIndex, ticks[index])
        }
    }

    /// The marble written back without spaces: `--a-'bc'-[de|]`.
    public var description: String {
        ticks.indices.map { index in
            index == subscriptionIndex ? "^" : MarbleNotation.tick(ticks[index].map(\.marbleSymbol))
        }.joined()
    }
}

extension MarbleDiagram.Event {
    /// How the event is written in a marble.
    var marbleSymbol: String {
        switch self {
        case .value(let name): MarbleNotation.name(name)
        case .finished: MarbleNotation.completion(failed: false)
        case .failure: MarbleNotation.completion(failed: true)
        }
    }
}

extension MarbleDiagram {
    /// Reads a marble string character by character; columns count from 1.
    private struct Parser {
        let marble: String
        let characters: [Character]
        var ticks: [[Event]] = []
        var subscriptionIndex: Int?
        private var subscriptionColumn = 0
        private var completionColumn: Int?
        /// The group being read: the column of its `[` and its events so far.
        private var group: (column: Int, events: [Event])?

        init(marble: String) {
            self.marble = marble
            characters = Array(marble)
        }

        mutating func parse() throws(MarbleSyntaxError) {
            var index = 0
            while index < characters.count {
                let character = characters[index]
                let column = index + 1
                switch character {
                case " ":
                    break
                case "-":
                    try requireNoGroup("'-'", column: column)
                    ticks.append([])
                case "^":
                    try requireNoGroup("'^'", column: column)
                    if subscriptionIndex != nil {
                        throw error(
                            column, "a second '^': the subscription point is already at column \(subscriptionColumn)")
                    }
                    subscriptionIndex = ticks.count
                    subscriptionColumn = column
                    ticks.append([])
                case "[":
                    if let group {
                        throw error(column, "'[' inside the group opened at column \(group.column): groups do not nest")
                    }
                    group = (column, [])
                case "]":
                    guard let open = group else { throw error(column, "']' without a '[' before it") }
                    if open.events.isEmpty {
                        throw error(open.column, "an empty group '[]': write '-' for a tick on which nothing happens")
                    }
                    ticks.append(open.events)
                    group = nil
                case "'":
                    guard let close = characters[(index + 1)...].firstIndex(of: "'") else {
                        throw error(column, "a quoted name that is never closed by '")
                    }
                    if close == index + 1 { throw error(column, "an empty name ''") }
                    try add(.value(String(characters[(index + 1)..<close])), column: column)
                    index = close
                case "|":
                    try add(.finished, column: column)
                case "#":
                    try add(.failure, column: column)
                default:
                    guard MarbleNotation.isBareValue(character) else {
                        throw error(
                            column,
                            "unexpected '\(character)': a tick is '-', a letter or digit, a 'quoted name', '|', '#', '^' or a [group]"
                        )
                    }
                    try add(.value(String(character)), column: column)
                }
                index += 1
            }
            if let group { throw error(group.column, "'[' is never closed by ']'") }
        }

        private mutating func add(_ event: Event, column: Int) throws(MarbleSyntaxError) {
            if let completionColumn {
                throw error(
                    column,
                    "event \(event.marbleSymbol) after the completion at column \(completionColumn): nothing happens after '|' or '#'"
                )
            }
            if event == .finished || event == .failure { completionColumn = column }
            if group != nil {
                group?.events.append(event)
            } else {
                ticks.append([event])
            }
        }

        private func requireNoGroup(_ symbol: String, column: Int) throws(MarbleSyntaxError) {
            if let group {
                throw error(
                    column,
                    "\(symbol) inside the group opened at column \(group.column): a group holds only values, '|' and '#'"
                )
            }
        }

        private func error(_ column: Int, _ reason: String) -> MarbleSyntaxError {
            MarbleSyntaxError(marble: marble, column: column, reason: reason)
        }
    }
}
