// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The text a trace records for a value, a subscription or an error: at most
/// ``TraceDescription/limit`` characters, made in time that does not grow with the value.
///
/// `String(describing:)` of a 200,000-element array builds the whole text before it could be
/// cut, and so does that of a struct holding one (the default description prints every stored
/// property). So a collection is described by its first elements and its count, and a value
/// with no description of its own by its first stored properties, each described the same way,
/// a few levels deep. A type's own `description` (`CustomStringConvertible`) is called as it is:
/// its cost is that type's.
enum TraceDescription {
    /// The longest description kept, in characters.
    static let limit = 120
    /// How many elements of a collection, or stored properties of a value, are described.
    private static let shownParts = 4
    /// How deep a value's parts are described before `…` stands for them.
    private static let depth = 3

    static func describe<Value>(_ value: Value) -> String {
        cut(text(of: value, depth: depth))
    }

    /// `text` cut to ``limit`` characters, `…` standing for the rest.
    static func cut(_ text: String) -> String {
        // Counting UTF-8 bytes is O(1) for a native string; characters are counted only when long.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private static func text(of value: Any, depth: Int) -> String {
        if let string = value as? String { return cut(string) }
        if let data = value as? Data { return "\(data.count) bytes" }
        if let collection = value as? any Collection { return text(ofCollection: collection, depth: depth) }
        if let optional = value as? any OptionalValue {
            // Before CustomDebugStringConvertible: Optional's would describe what it wraps in full.
            return optional.wrapped.map { "Optional(" + text(of: $0, depth: depth) + ")" } ?? "nil"
        }
        if let described = value as? any CustomStringConvertible { return cut(described.description) }
        if let described = value as? any CustomDebugStringConvertible { return cut(described.debugDescription) }
        return text(ofParts: value, depth: depth)
    }

    /// `[a, b, c, d, … n elements]`: the first elements and, where counting costs nothing, the
    /// count.
    private static func text<Elements: Collection>(ofCollection collection: Elements, depth: Int) -> String {
        guard depth > 0 else { return "[…]" }
        var parts: [String] = []
        var index = collection.startIndex
        while parts.count < shownParts, index != collection.endIndex {
            parts.append(text(of: collection[index], depth: depth - 1))
            index = collection.index(after: index)
        }
        guard index != collection.endIndex else { return "[" + parts.joined(separator: ", ") + "]" }
        let count = collection is any RandomAccessCollection ? " \(collection.count) elements" : ""
        return "[" + parts.joined(separator: ", ") + ", …" + count + "]"
    }

    /// A value without a description of its own, as the standard library would write it
    /// (`Point(x: 1, y: 2)`, `Optional(3)`, `loaded([…])`), from its first stored parts.
    private static func text(ofParts value: Any, depth: Int) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .class:
            // As the standard library writes an instance without a description: its type.
            return String(reflecting: type(of: value))
        case .enum:
            guard let payload = mirror.children.first, let label = payload.label else {
                return String(describing: value)  // a case without a payload: its name
            }
            let inner = text(of: payload.value, depth: depth - 1)
            return label + (inner.hasPrefix("(") ? inner : "(" + inner + ")")
        default:
            guard depth > 0 else { return "…" }
            var parts: [String] = []
            var more = false
            for (offset, child) in mirror.children.enumerated() {
                guard offset < shownParts else {
                    more = true
                    break
                }
                let part = text(of: child.value, depth: depth - 1)
                parts.append(child.label.map { $0.hasPrefix(".") ? part : "\($0): \(part)" } ?? part)
            }
            let body = parts.joined(separator: ", ") + (more ? ", …" : "")
            if mirror.displayStyle == .tuple { return "(" + body + ")" }
            let name = String(describing: type(of: value))
            return mirror.children.isEmpty ? name + "()" : name + "(" + body + ")"
        }
    }
}

/// An `Optional` of any type, seen through `Any`.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
}
