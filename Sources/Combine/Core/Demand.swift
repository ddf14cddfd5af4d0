// SPDX-License-Identifier: Apache-2.0
extension Subscribers {
    /// How many values a subscriber asks a publisher for, passed along the subscription between
    /// them.
    ///
    /// Demand is either ``unlimited`` or a finite, non-negative count made with
    /// ``max(_:)``. Arithmetic never produces a negative demand:
    ///
    /// | expression | result |
    /// | --- | --- |
    /// | `.max(2) + .max(3)` | `.max(5)` |
    /// | `.unlimited + .max(1)` | `.unlimited` |
    /// | `.max(Int.max) + 1` | `.unlimited` (saturates) |
    /// | `.max(2) - .max(5)` | `.none` (clamped at zero, as Apple documents) |
    /// | `.unlimited - .max(9)`, `.unlimited - .unlimited` | `.unlimited` |
    /// | `.max(5) - .unlimited` | `.none` |
    /// | `.max(3) * 2` | `.max(6)` |
    ///
    /// `Demand.max(-1)` traps: a subscriber can't request a negative number of values.
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// `0...Int.max` for a finite demand, `Demand.unlimitedRawValue` for unlimited.
        @usableFromInline
        let rawValue: UInt

        @usableFromInline
        static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        @inlinable
        init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        /// A demand with no limit: the publisher may send every value it has.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// A demand of zero values. Equal to `Demand.max(0)`.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// Returns a finite demand of `value` values.
        ///
        /// - Precondition: `value` is not negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            apiPrecondition(value >= 0, "Subscribers.Demand.max: demand must not be negative (got \(value))")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` if the demand is unlimited.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// `"unlimited"` or `"max(n)"`.
        public var description: String {
            self == .unlimited ? "unlimited" : "max(\(rawValue))"
        }

        /// Creates a demand instance from a decoder.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // As Apple's: a number past `.unlimited`'s encoding (`Int.max + 1`) decodes as
            // `.unlimited`; a negative one is an error.
            let raw = try container.decode(UInt.self)
            self.init(rawValue: Swift.min(raw, Demand.unlimitedRawValue))
        }

        /// Encodes the demand to the provide encoder.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        // MARK: Arithmetic

        /// Returns the sum of two demands. Adding anything to `.unlimited` (or a sum past
        /// `Int.max`) gives `.unlimited`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            // Both are at most 2^63, so only `.unlimited + .unlimited` overflows a `UInt`.
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: Swift.min(sum, unlimitedRawValue))
        }

        /// Adds two demands and assigns the result to the left side.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Returns the result of adding a number of elements to a demand. A negative
        /// number subtracts, and the result is clamped at `.none`.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            rhs >= 0 ? lhs + Demand(rawValue: UInt(rhs)) : lhs - Demand(rawValue: rhs.magnitude)
        }

        /// Adds a number of elements to a demand and assigns the result to the left side.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Returns the result of multiplying a demand by a number of elements.
        /// `.unlimited` stays unlimited; a product past `Int.max` is `.unlimited`.
        ///
        /// - Precondition: `rhs` is not negative.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            apiPrecondition(rhs >= 0, "Subscribers.Demand: cannot multiply a demand by a negative number (got \(rhs))")
            if lhs == .unlimited { return .unlimited }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product > UInt(Int.max) ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies a demand by a number of elements and assigns the result to the left side.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        /// Returns `lhs` minus `rhs`.
        ///
        /// Subtracting anything (even `.unlimited`) from `.unlimited` leaves `.unlimited`;
        /// subtracting `.unlimited` from a finite demand gives `.none`; a finite result
        /// below zero is `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts one demand from another and assigns the result to the left side.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Returns the result of subtracting a number of elements from a demand. A negative
        /// number adds; a result below zero is `.none`, and so (as Apple's) is a finite result
        /// past `Int.max`: `.max(Int.max) - (-1)` is `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
            return overflow || difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Subtracts a number of elements from a demand and assigns the result to the left side.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        // MARK: Comparison (`.unlimited` is greater than every number)

        /// Returns whether the demand on the left is less than the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }
        /// Returns whether the demand on the left is less than or equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func <= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue <= rhs.rawValue }
        /// Returns whether the demand on the left is greater than or equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func >= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue >= rhs.rawValue }
        /// Returns whether the demand on the left is greater than the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func > (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue > rhs.rawValue }

        /// Compares a demand with a number of elements. A negative number is less than any demand.
        @inlinable
        static func compare(_ demand: Demand, _ count: Int) -> Int {
            if count < 0 { return 1 }
            let count = UInt(count)
            return demand.rawValue < count ? -1 : (demand.rawValue == count ? 0 : 1)
        }

        /// Returns whether the demand on the left is equal to the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) == 0 }
        /// Returns whether the demand on the left is not equal to the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) != 0 }
        /// Returns whether the integer on the left is equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) == 0 }
        /// Returns whether the integer on the left is not equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) != 0 }
        /// Returns whether the demand on the left is less than the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) < 0 }
        /// Returns whether the demand on the left is less than or equal to the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) <= 0 }
        /// Returns whether the demand on the left is greater than the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) > 0 }
        /// Returns whether the demand on the left is greater than or equal to the integer on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { compare(lhs, rhs) >= 0 }
        /// Returns whether the integer on the left is less than the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) > 0 }
        /// Returns whether the integer on the left is less than or equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) >= 0 }
        /// Returns whether the integer on the left is greater than the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) < 0 }
        /// Returns whether the integer on the left is greater than or equal to the demand on the right (`.unlimited` is greater than every number).
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { compare(rhs, lhs) <= 0 }
    }
}
