// SPDX-License-Identifier: Apache-2.0
/// How events are written in a marble string: the one place that turns names and ticks back
/// into text, for ``MarbleDiagram/description``, ``MarbleRecording/marble(valueName:)`` and the
/// mismatch drawing of `expect`.
enum MarbleNotation {
    /// A value's name as a marble string writes it: a single letter or digit stands alone,
    /// anything else is quoted (`a`, `7`, `'hello'`).
    static func name(_ name: String) -> String {
        if name.count == 1, let character = name.first, isBareValue(character) { return name }
        return "'\(name)'"
    }

    /// Whether the character is a value on its own in a marble string.
    static func isBareValue(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// One tick: `-` when nothing happens, the event itself when one thing happens, a
    /// `[...]` group when several do.
    static func tick(_ events: [String]) -> String {
        switch events.count {
        case 0: "-"
        case 1: events[0]
        default: "[\(events.joined())]"
        }
    }

    /// The symbol of a completion: `|` for finished, `#` for a failure.
    static func completion(failed: Bool) -> String { failed ? "#" : "|" }
}
