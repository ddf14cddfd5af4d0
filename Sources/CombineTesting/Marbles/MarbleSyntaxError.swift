// SPDX-License-Identifier: Apache-2.0
/// A marble string that does not follow the syntax of ``MarbleDiagram``; its description
/// names the rule broken and points at the column with a caret.
///
/// ```swift
/// do {
///     _ = try MarbleDiagram("--[ab")
/// } catch {
///     print(error)
///     // marble syntax error at column 3: '[' is never closed by ']'
///     //   --[ab
///     //     ^
/// }
/// ```
public struct MarbleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The marble string as given.
    public let marble: String

    /// The column (counted in characters from 1) of the character at fault.
    public let column: Int

    /// What is wrong there.
    public let reason: String

    /// Creates an error about the character at `column` (from 1) of `marble`.
    public init(marble: String, column: Int, reason: String) {
        self.marble = marble
        self.column = column
        self.reason = reason
    }

    /// The reason, then the marble with a caret under the column at fault.
    public var description: String {
        let caretIndent = String(repeating: " ", count: max(0, column - 1))
        return "marble syntax error at column \(column): \(reason)\n  \(marble)\n  \(caretIndent)^"
    }
}
