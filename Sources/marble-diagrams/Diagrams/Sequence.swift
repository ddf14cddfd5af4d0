// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Sequence operators: the ones that pick values by position or by a condition, and the ones that
/// add values before or after the upstream's.
@MainActor let sequenceDiagrams: [Diagram] = [
    Diagram(name: "first", inputs: ["--a-b-|"], label: "first()") { _, x in x[0].first() },
    Diagram(name: "first-where", inputs: ["-1-2-3-4-|"], label: "first { $0 is even }") { _, x in
        x[0].first { number($0) % 2 == 0 }
    },
    Diagram(name: "tryFirst", inputs: ["-1-x-4-|"], label: "tryFirst { x throws; $0 is even }") { _, x in
        x[0].tryFirst { number(try rejectingX($0)) % 2 == 0 }
    },
    Diagram(name: "last", inputs: ["-a-b-c-|"], label: "last()") { _, x in x[0].last() },
    Diagram(name: "last-where", inputs: ["-1-2-3-4-5-|"], label: "last { $0 is even }") { _, x in
        x[0].last { number($0) % 2 == 0 }
    },
    Diagram(name: "tryLast", inputs: ["-2-x-4-|"], label: "tryLast { x throws; $0 is even }") { _, x in
        x[0].tryLast { number(try rejectingX($0)) % 2 == 0 }
    },
    Diagram(name: "output-at", inputs: ["-a-b-c-|"], label: "output(at: 1)") { _, x in x[0].output(at: 1) },
    Diagram(name: "output-in", inputs: ["-a-b-c-d-|"], label: "output(in: 1...2)") { _, x in
        x[0].output(in: 1...2)
    },
    Diagram(name: "dropFirst", inputs: ["-a-b-c-d-|"], label: "dropFirst(2)") { _, x in x[0].dropFirst(2) },
    Diagram(name: "drop-while", inputs: ["-1-3-4-5-|"], label: "drop { $0 is odd }") { _, x in
        x[0].drop { number($0) % 2 == 1 }
    },
    Diagram(name: "tryDrop", inputs: ["-1-3-x-5-|"], label: "tryDrop { x throws; $0 is odd }") { _, x in
        x[0].tryDrop { number(try rejectingX($0)) % 2 == 1 }
    },
    Diagram(
        name: "drop-untilOutputFrom", inputs: [cold("-a-b-c-d-|", "upstream"), hot("----t----", "trigger")],
        label: "drop(untilOutputFrom: trigger)"
    ) { _, x in
        x[0].drop(untilOutputFrom: x[1])
    },
    Diagram(name: "prefix", inputs: ["-a-b-c-d-|"], label: "prefix(2)") { _, x in x[0].prefix(2) },
    Diagram(name: "prefix-while", inputs: ["-1-3-4-5-|"], label: "prefix { $0 is odd }") { _, x in
        x[0].prefix { number($0) % 2 == 1 }
    },
    Diagram(name: "tryPrefix", inputs: ["-1-3-x-5-|"], label: "tryPrefix { x throws; $0 is odd }") { _, x in
        x[0].tryPrefix { number(try rejectingX($0)) % 2 == 1 }
    },
    Diagram(
        name: "prefix-untilOutputFrom", inputs: [cold("-a-b-c-d-|", "upstream"), hot("----t----", "trigger")],
        label: "prefix(untilOutputFrom: trigger)"
    ) { _, x in
        x[0].prefix(untilOutputFrom: x[1])
    },
    Diagram(name: "append", inputs: ["-a-b-|"], label: "append(\"y\", \"z\")") { _, x in x[0].append("y", "z") },
    Diagram(
        name: "append-publisher", inputs: [cold("-a-b-|", "upstream"), hot("--1----2-3|", "other")],
        label: "append(other)"
    ) { _, x in
        x[0].append(x[1])
    },
    Diagram(name: "prepend", inputs: ["--a-b-|"], label: "prepend(\"y\", \"z\")") { _, x in
        x[0].prepend("y", "z")
    },
    Diagram(
        name: "prepend-publisher", inputs: [hot("-a-----b-c|", "upstream"), hot("--1-2|", "other")],
        label: "prepend(other)"
    ) { _, x in
        x[0].prepend(x[1])
    },
]
