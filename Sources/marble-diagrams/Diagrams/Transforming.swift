// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// Throws for the value `x`, so the `try` operators' pictures show a thrown error as a failure.
func rejectingX(_ value: String) throws -> String {
    if value == "x" { throw MarbleError("x") }
    return value
}

/// A function that ignores its argument and returns `make()`: a transform for `Never`, which
/// the compiler would call code that never runs if written as a closure.
func ignoring<Input, Result>(_ make: @escaping () -> Result) -> (Input) -> Result {
    { _ in make() }
}

/// A number's label, for the operators that count or add.
func number(_ value: String) -> Int { Int(value) ?? 0 }

/// Mapping: the operators that turn each value (or the failure) into another.
@MainActor let transformingDiagrams: [Diagram] = [
    Diagram(name: "map", inputs: ["-1-2-3-|"], label: "map { $0 * 10 }") { _, x in
        x[0].map { "\(number($0) * 10)" }
    },
    Diagram(name: "map-keyPath", inputs: ["-a-'bb'-'ccc'-|"], label: "map(\\.count)") { _, x in
        x[0].map(\.count)
    },
    Diagram(name: "map-keyPath2", inputs: ["-'ab'-'cde'-|"], label: "map(\\.first!, \\.count)") { _, x in
        x[0].map(\.first!, \.count)
    },
    Diagram(name: "map-keyPath3", inputs: ["-'ab'-'cde'-|"], label: "map(\\.first!, \\.last!, \\.count)") { _, x in
        x[0].map(\.first!, \.last!, \.count)
    },
    Diagram(name: "tryMap", inputs: ["-a-b-x-c-|"], label: "tryMap { x throws, else uppercased }") { _, x in
        x[0].tryMap { try rejectingX($0).uppercased() }
    },
    Diagram(name: "mapError", inputs: ["-a-b-#"], label: "mapError { _ in MarbleError(\"other\") }") { _, x in
        x[0].mapError { _ in MarbleError("other") }
    },
    Diagram(name: "replaceNil", inputs: ["-a-'nil'-b-|"], label: "replaceNil(with: \"z\")") { _, x in
        x[0].map { $0 == "nil" ? nil : $0 }.replaceNil(with: "z")
    },
    Diagram(name: "scan", inputs: ["-1-2-3-|"], label: "scan(0, +)") { _, x in
        x[0].scan(0) { $0 + number($1) }
    },
    Diagram(name: "tryScan", inputs: ["-a-b-x-c-|"], label: "tryScan(\"\") { x throws, else $0 + $1 }") { _, x in
        x[0].tryScan("") { try $0 + rejectingX($1) }
    },
    Diagram(name: "setFailureType", inputs: ["-a-b-|"], label: "setFailureType(to: MarbleError.self)") { run, _ in
        run.test.cold("-a-b-|", values: ["a": "a", "b": "b"]).setFailureType(to: MarbleError.self)
    },
    Diagram(
        name: "flatMap",
        inputs: [cold("-A---B------|", "upstream"), hot("--a---b---c|", "A"), hot("-------1-2--|", "B")],
        label: "flatMap { $0 == \"A\" ? A : B }"
    ) { _, x in
        x[0].flatMap { $0 == "A" ? x[1] : x[2] }
    },
    Diagram(
        name: "flatMap-maxPublishers",
        inputs: [cold("-A-B--------|", "upstream"), hot("--a--b|", "A"), hot("---1---2-|", "B")],
        label: "flatMap(maxPublishers: .max(1)) { … }"
    ) { _, x in
        x[0].flatMap(maxPublishers: .max(1)) { $0 == "A" ? x[1] : x[2] }
    },
    Diagram(
        name: "switchToLatest",
        inputs: [cold("-A----B-----|", "upstream"), hot("--a--b--c---|", "A"), hot("-------1--2-|", "B")],
        label: "map { $0 == \"A\" ? A : B }.switchToLatest()"
    ) { _, x in
        x[0].map { $0 == "A" ? x[1] : x[2] }.switchToLatest()
    },
]
