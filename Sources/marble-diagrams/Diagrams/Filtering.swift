// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Filtering: the operators that let some values through, or replace what is missing.
@MainActor let filteringDiagrams: [Diagram] = [
    Diagram(name: "filter", inputs: ["-1-2-3-4-|"], label: "filter { $0 is even }") { _, x in
        x[0].filter { number($0) % 2 == 0 }
    },
    Diagram(name: "tryFilter", inputs: ["-1-2-x-4-|"], label: "tryFilter { x throws; $0 is even }") { _, x in
        x[0].tryFilter { number(try rejectingX($0)) % 2 == 0 }
    },
    Diagram(name: "compactMap", inputs: ["-1-x-3-|"], label: "compactMap { Int($0) }") { _, x in
        x[0].compactMap { Int($0) }
    },
    Diagram(name: "tryCompactMap", inputs: ["-1-n-x-3-|"], label: "tryCompactMap { x throws; Int($0) }") { _, x in
        x[0].tryCompactMap { Int(try rejectingX($0)) }
    },
    Diagram(name: "removeDuplicates", inputs: ["-a-a-b-b-a-|"], label: "removeDuplicates()") { _, x in
        x[0].removeDuplicates()
    },
    Diagram(
        name: "removeDuplicates-by", inputs: ["-a-A-b-B-a-|"], label: "removeDuplicates { same letter, any case }"
    ) { _, x in
        x[0].removeDuplicates { $0.lowercased() == $1.lowercased() }
    },
    Diagram(name: "tryRemoveDuplicates", inputs: ["-a-a-b-x-c-|"], label: "tryRemoveDuplicates { x throws, else == }") {
        _, x in
        x[0].tryRemoveDuplicates { try rejectingX($1) == $0 }
    },
    Diagram(name: "replaceEmpty", inputs: ["----|"], label: "replaceEmpty(with: \"z\")") { _, x in
        x[0].replaceEmpty(with: "z")
    },
    Diagram(name: "replaceError", inputs: ["-a-b-#"], label: "replaceError(with: \"z\")") { _, x in
        x[0].replaceError(with: "z")
    },
]
