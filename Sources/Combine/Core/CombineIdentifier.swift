// SPDX-License-Identifier: Apache-2.0
import Synchronization

private let nextIdentifier = Atomic<UInt64>(1)

/// A unique identifier for identifying publisher streams.
///
/// Use ``init()`` for a fresh identifier, or ``init(_:)`` to identify a stream by an object.
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    private let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Creates an identifier that stands for the given object as long as it is alive.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier in hexadecimal, for example `0x1a`.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

/// A protocol for uniquely identifying publisher streams.
///
/// A class gets a conformance for free: its identifier is derived from its identity.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for identifying publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// The identifier of this object: equal for the same instance, distinct for others.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
