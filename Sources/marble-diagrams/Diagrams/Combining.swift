// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Lanes for the merges of two to eight publishers: each lane publishes its own letter at its own
/// ticks, so the output shows the interleaving.
private let mergeLanes: [Input] = [
    "-a------a-|", "--b--b---|", "---c----|", "----d--|", "-----e--|", "------f|", "-------g-|", "--h------|",
]

/// Combining: the operators that publish from several upstreams.
@MainActor let combiningDiagrams: [Diagram] = [
    Diagram(name: "merge", inputs: titled(["upstream", "other"], ["-a---c-|", "--b---d|"]), label: "merge(with:)") {
        _, x in x[0].merge(with: x[1])
    },
    Diagram(name: "merge3", inputs: Array(mergeLanes.prefix(3)), label: "merge(with:_:)") { _, x in
        x[0].merge(with: x[1], x[2])
    },
    Diagram(name: "merge4", inputs: Array(mergeLanes.prefix(4)), label: "merge(with:_:_:)") { _, x in
        x[0].merge(with: x[1], x[2], x[3])
    },
    Diagram(name: "merge5", inputs: Array(mergeLanes.prefix(5)), label: "merge(with:_:_:_:)") { _, x in
        x[0].merge(with: x[1], x[2], x[3], x[4])
    },
    Diagram(name: "merge6", inputs: Array(mergeLanes.prefix(6)), label: "merge(with:_:_:_:_:)") { _, x in
        x[0].merge(with: x[1], x[2], x[3], x[4], x[5])
    },
    Diagram(name: "merge7", inputs: Array(mergeLanes.prefix(7)), label: "merge(with:_:_:_:_:_:)") { _, x in
        x[0].merge(with: x[1], x[2], x[3], x[4], x[5], x[6])
    },
    Diagram(name: "merge8", inputs: mergeLanes, label: "merge(with:_:_:_:_:_:_:)") { _, x in
        x[0].merge(with: x[1], x[2], x[3], x[4], x[5], x[6], x[7])
    },
    Diagram(name: "zip", inputs: titled(["upstream", "other"], ["-a---c-|", "--1-2---|"]), label: "zip(other)") {
        _, x in x[0].zip(x[1])
    },
    Diagram(
        name: "zip-transform", inputs: titled(["upstream", "other"], ["-a---c-|", "--1-2---|"]), label: "zip(other, +)"
    ) { _, x in
        x[0].zip(x[1], +)
    },
    Diagram(
        name: "zip3", inputs: titled(["upstream", "p", "q"], ["-a---c-|", "--1-2---|", "---x--y-|"]), label: "zip(p, q)"
    ) { _, x in
        x[0].zip(x[1], x[2])
    },
    Diagram(
        name: "zip3-transform", inputs: titled(["upstream", "p", "q"], ["-a---c-|", "--1-2---|", "---x--y-|"]),
        label: "zip(p, q) { $0 + $1 + $2 }"
    ) {
        _, x in
        x[0].zip(x[1], x[2]) { $0 + $1 + $2 }
    },
    Diagram(
        name: "zip4",
        inputs: titled(["upstream", "p", "q", "r"], ["-a---c-|", "--1-2---|", "---x--y-|", "-A----B-|"]),
        label: "zip(p, q, r)"
    ) { _, x in
        x[0].zip(x[1], x[2], x[3])
    },
    Diagram(
        name: "zip4-transform",
        inputs: titled(["upstream", "p", "q", "r"], ["-a---c-|", "--1-2---|", "---x--y-|", "-A----B-|"]),
        label: "zip(p, q, r) { $0 + $1 + $2 + $3 }"
    ) { _, x in
        x[0].zip(x[1], x[2], x[3]) { $0 + $1 + $2 + $3 }
    },
    Diagram(
        name: "combineLatest", inputs: titled(["upstream", "other"], ["-a---c--|", "--1-2---|"]),
        label: "combineLatest(other)"
    ) { _, x in
        x[0].combineLatest(x[1])
    },
    Diagram(
        name: "combineLatest-transform", inputs: titled(["upstream", "other"], ["-a---c--|", "--1-2---|"]),
        label: "combineLatest(other, +)"
    ) { _, x in
        x[0].combineLatest(x[1], +)
    },
    Diagram(
        name: "combineLatest3", inputs: titled(["upstream", "p", "q"], ["-a---c--|", "--1-2---|", "---x---|"]),
        label: "combineLatest(p, q)"
    ) {
        _, x in
        x[0].combineLatest(x[1], x[2])
    },
    Diagram(
        name: "combineLatest3-transform",
        inputs: titled(["upstream", "p", "q"], ["-a---c--|", "--1-2---|", "---x---|"]),
        label: "combineLatest(p, q) { $0 + $1 + $2 }"
    ) { _, x in
        x[0].combineLatest(x[1], x[2]) { $0 + $1 + $2 }
    },
    Diagram(
        name: "combineLatest4",
        inputs: titled(["upstream", "p", "q", "r"], ["-a---c--|", "--1-2---|", "---x---|", "-A-----|"]),
        label: "combineLatest(p, q, r)"
    ) { _, x in
        x[0].combineLatest(x[1], x[2], x[3])
    },
    Diagram(
        name: "combineLatest4-transform",
        inputs: titled(["upstream", "p", "q", "r"], ["-a---c--|", "--1-2---|", "---x---|", "-A-----|"]),
        label: "combineLatest(p, q, r) { $0 + $1 + $2 + $3 }"
    ) { _, x in
        x[0].combineLatest(x[1], x[2], x[3]) { $0 + $1 + $2 + $3 }
    },
]
