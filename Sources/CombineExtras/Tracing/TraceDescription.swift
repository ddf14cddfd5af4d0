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
        // The usual values first, told apart by their type alone (no conformance lookup).
        if Value.self == String.self { return cut(value as! String) }
        if Value.self == Int.self { return String(value as! Int) }
        if Value.self == Double.self { return (value as! Double).description }
        if Value.self == Bool.self { return (value as! Bool) ? "true" : "false" }
        return cut(text(of: value, depth: depth))
    }

    /// What an event records of `value`: an `Int` as itself (written as text with the trace),
    /// anything else as its description.
    static func detail<Value>(of value: Value) -> TraceDetail {
        if Value.self == Int.self {
            return withUnsafePointer(to: value) { pointer in
                pointer.withMemoryRebound(to: Int.self, capacity: 1) { .integer($0.pointee) }
            }
        }
        return .text(describe(value))
    }

    /// How a type is described, found once per type (a conformance lookup costs more than the
    /// description of a number).
    private enum Kind {
        case string, data, collection, optional, described, debugDescribed, parts
    }

    private static let kinds = StripedMap<ObjectIdentifier, Kind>()

    private static func kind(of value: Any) -> Kind {
        let type = ObjectIdentifier(Swift.type(of: value))
        if let known = kinds[type] { return known }
        let kind: Kind =
            switch value {
            case is String: .string
            case is Data: .data
            // A range's own text is its bounds: short, and made without counting (the count of
            // `Int.min...Int.max` does not fit in an `Int`).
            case is any RangeExpression & CustomStringConvertible: .described
            case is any Collection: .collection
            case is any OptionalValue: .optional
            case is any CustomStringConvertible: .described
            case is any CustomDebugStringConvertible: .debugDescribed
            default: .parts
            }
        kinds.set(kind, for: type)
        return kind
    }

    /// `text` cut to ``limit`` characters, `…` standing for the rest.
    static func cut(_ text: String) -> String {
        // Counting UTF-8 bytes is O(1) for a native string; characters are counted only when long.
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    private static func text(of value: Any, depth: Int) -> String {
        switch kind(of: value) {
        case .string: return cut(value as! String)
        case .data: return "\((value as! Data).count) bytes"
        case .collection:
            let collection = value as! any Collection
            return text(ofCollection: collection, depth: depth)
        // Before CustomDebugStringConvertible: Optional's would describe what it wraps in full.
        case .optional:
            return (value as! any OptionalValue).wrapped.map { "Optional(" + text(of: $0, depth: depth) + ")" } ?? "nil"
        case .described: return cut((value as! any CustomStringConvertible).description)
        case .debugDescribed: return cut((value as! any CustomDebugStringConvertible).debugDescription)
        case .parts: return text(ofParts: value, depth: depth)
        }
    }

    /// `[a, b, c, d, … n elements]`: the first elements and, for the standard library's containers
    /// that store their count, the count (another collection's `count` may walk it, or trap).
    private static func text<Elements: Collection>(ofCollection collection: Elements, depth: Int) -> String {
        guard depth > 0 else { return "[…]" }
        var parts: [String] = []
        var index = collection.startIndex
        while parts.count < shownParts, index != collection.endIndex {
            parts.append(text(of: collection[index], depth: depth - 1))
            index = collection.index(after: index)
        }
        guard index != collection.endIndex else { return "[" + parts.joined(separator: ", ") + "]" }
        let count = (collection as? any StoredCount).map { " \($0.storedCount) elements" } ?? ""
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
            // An indirect enum can nest as deep as the program likes: its payload counts as a level.
            guard depth > 0 else { return label + "(…)" }
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

/// A collection that keeps its count, so reading it costs nothing and cannot trap.
private protocol StoredCount {
    var storedCount: Int { get }
}

extension Array: StoredCount {
    fileprivate var storedCount: Int { count }
}

extension ContiguousArray: StoredCount {
    fileprivate var storedCount: Int { count }
}

extension ArraySlice: StoredCount {
    fileprivate var storedCount: Int { count }
}

extension Set: StoredCount {
    fileprivate var storedCount: Int { count }
}

extension Dictionary: StoredCount {
    fileprivate var storedCount: Int { count }
}
