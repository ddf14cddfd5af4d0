#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes Sources/Combine/Schedulers/DateSchedulerTime.swift from one template.

    scripts/generate-date-scheduler-time.py           rewrites the file
    scripts/generate-date-scheduler-time.py --check   exits 1 if the file is not what it writes

`RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` (and their `Stride` types)
are distinct types in Apple's API with the same behaviour: a wall-clock `Date` advanced by
strides counted in seconds. Each must declare its members itself (a shared public protocol would
add public names Apple's Combine does not have), so the members are written once, here, and
generated for both types.
"""
import os
import sys

TYPES = [
    ("RunLoop", "run loop", "a run loop", "OperationQueue"),
    ("OperationQueue", "operation queue", "an operation queue", "RunLoop"),
]

# The types themselves and the scheduler members that only read them, the same for both
# (the `schedule` methods, which differ, stay in RunLoop+Scheduler.swift and
# OperationQueue+Scheduler.swift).
DECLARATIONS = '''extension {owner} {{
    /// The scheduler time type used by the {noun}: a wall-clock `Date`.
    ///
    /// Its `distance(to:)` and `advanced(by:)` are in `DateSchedulerTime.swift`, generated
    /// with those of `{other}.SchedulerTimeType`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {{
        /// The date represented by this type.
        public var date: Date

        /// Initializes {a_noun} scheduler time with the given date.
        ///
        /// - Parameter date: The date to represent.
        public init(_ date: Date) {{
            self.date = date
        }}

        /// The interval by which {noun} times advance, in seconds.
        ///
        /// Integer and floating-point literals are seconds, both read as a `TimeInterval`:
        ///
        /// ```swift
        /// let delay: {owner}.SchedulerTimeType.Stride = 2   // 2.0 seconds
        /// {owner}.SchedulerTimeType.Stride.milliseconds(250).timeInterval   // 0.25
        /// ```
        ///
        /// Its initialisers from literals and integers, arithmetic, comparison and unit
        /// conversions are in `DateSchedulerTime.swift`, generated with those of
        /// `{other}.SchedulerTimeType.Stride`.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Sendable
        {{
            /// The type of a floating-point literal, a number of seconds.
            public typealias FloatLiteralType = TimeInterval

            /// The type of an integer literal, a number of seconds.
            public typealias IntegerLiteralType = TimeInterval

            /// The type of ``magnitude``: a number of seconds.
            public typealias Magnitude = TimeInterval

            /// The value of this time interval in seconds (negative for a span backwards).
            public var magnitude: TimeInterval

            /// Creates {a_noun} scheduler time interval from the given time interval.
            ///
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: TimeInterval) {{
                magnitude = timeInterval
            }}
        }}
    }}

    /// Options that affect the operation of the {noun} scheduler; the {noun} takes none.
    public struct SchedulerOptions: Sendable {{}}

    /// The {noun} scheduler's definition of the current moment in time: `Date()`.
    public var now: SchedulerTimeType {{
        SchedulerTimeType(Date())
    }}

    /// The minimum tolerance allowed by the {noun} scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {{
        0.0
    }}
}}
'''


TEMPLATE = '''extension {owner}.SchedulerTimeType {{
    /// Returns the distance to another {noun} scheduler time, in seconds.
    ///
    /// - Parameter other: Another {noun} scheduler time.
    /// - Returns: The seconds from this time to `other` (negative when `other` is earlier).
    @inlinable
    public func distance(to other: {owner}.SchedulerTimeType) -> Stride {{
        Stride(other.date.timeIntervalSince(date))
    }}

    /// Returns this {noun} scheduler time moved by a number of seconds.
    ///
    /// - Parameter n: The seconds to move by (backwards when negative).
    /// - Returns: The time `n` seconds from this one.
    @inlinable
    public func advanced(by n: Stride) -> {owner}.SchedulerTimeType {{
        {owner}.SchedulerTimeType(date.addingTimeInterval(n.magnitude))
    }}
}}

extension {owner}.SchedulerTimeType.Stride {{
    /// This {noun} interval in seconds, the same number as ``magnitude``.
    @inlinable
    public var timeInterval: TimeInterval {{
        magnitude
    }}

    /// Creates a {noun} interval from an integer literal, a number of seconds.
    @inlinable
    public init(integerLiteral value: TimeInterval) {{
        self.init(value)
    }}

    /// Creates a {noun} interval from a floating-point literal, a number of seconds.
    @inlinable
    public init(floatLiteral value: TimeInterval) {{
        self.init(value)
    }}

    /// Creates a {noun} interval of `source` seconds; `nil` when a `TimeInterval` cannot hold
    /// that number exactly.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {{
        guard let seconds = TimeInterval(exactly: source) else {{ return nil }}
        self.init(seconds)
    }}

    /// Whether `lhs` is a shorter {noun} interval than `rhs`.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool {{
        lhs.magnitude < rhs.magnitude
    }}

    /// The product of two {noun} intervals' second counts: `.seconds(2) * 3` is 6 seconds.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self {{
        Self(lhs.magnitude * rhs.magnitude)
    }}

    /// The sum of two {noun} intervals.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self {{
        Self(lhs.magnitude + rhs.magnitude)
    }}

    /// The difference of two {noun} intervals.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self {{
        Self(lhs.magnitude - rhs.magnitude)
    }}

    /// Multiplies a {noun} interval by another in place.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Self) {{
        lhs = lhs * rhs
    }}

    /// Adds a {noun} interval to another in place.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) {{
        lhs = lhs + rhs
    }}

    /// Subtracts a {noun} interval from another in place.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) {{
        lhs = lhs - rhs
    }}

    /// A {noun} interval of `s` whole seconds.
    @inlinable
    public static func seconds(_ s: Int) -> Self {{
        Self(TimeInterval(s))
    }}

    /// A {noun} interval of `s` seconds, fractions included.
    @inlinable
    public static func seconds(_ s: Double) -> Self {{
        Self(s)
    }}

    /// A {noun} interval of `ms` milliseconds.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Self {{
        Self(TimeInterval(ms) / 1_000)
    }}

    /// A {noun} interval of `us` microseconds.
    @inlinable
    public static func microseconds(_ us: Int) -> Self {{
        Self(TimeInterval(us) / 1_000_000)
    }}

    /// A {noun} interval of `ns` nanoseconds.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Self {{
        Self(TimeInterval(ns) / 1_000_000_000)
    }}
}}
'''

HEADER = '''// SPDX-License-Identifier: Apache-2.0
// Generated by scripts/generate-date-scheduler-time.py from one template: edit the script,
// not this file. The two date-based scheduler times and their strides, which Apple's API
// declares as distinct types with the same behaviour, with their schedulers' options, `now`
// and `minimumTolerance`.
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation) && canImport(Dispatch)
import Foundation
'''


def render():
    parts = [HEADER]
    for owner, noun, a_noun, other in TYPES:
        names = dict(owner=owner, noun=noun, a_noun=a_noun, other=other)
        parts.append("\n" + DECLARATIONS.format(**names))
        parts.append("\n" + TEMPLATE.format(**names))
    parts.append("#endif\n")
    return "".join(parts)


def main():
    root = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    path = os.path.join(root, "Sources", "Combine", "Schedulers", "DateSchedulerTime.swift")
    text = render()
    if "--check" in sys.argv[1:]:
        with open(path, encoding="utf-8") as file:
            if file.read() != text:
                print(f"{path} is not what scripts/generate-date-scheduler-time.py writes: run it")
                return 1
        return 0
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
