// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// The overloads that fuse two steps into one publisher (`map` on a `Publishers.Map`, `filter` on
/// a `Publishers.Filter`, ...): each picture is a run of that pair.
@MainActor let fusedDiagrams: [Diagram] = [
    Diagram(name: "Map-map", inputs: ["-1-2-3-|"], label: "map { $0 * 10 }.map { $0 + 1 }") { _, x in
        x[0].map { number($0) * 10 }.map { $0 + 1 }
    },
    Diagram(name: "Map-tryMap", inputs: ["-1-2-x-3-|"], label: "map { $0 }.tryMap { x throws }") { _, x in
        x[0].map { $0 }.tryMap { try rejectingX($0).uppercased() }
    },
    Diagram(name: "Filter-filter", inputs: ["-1-2-3-4-5-6-|"], label: "filter { $0 is even }.filter { $0 > 2 }") {
        _, x in
        x[0].filter { number($0) % 2 == 0 }.filter { number($0) > 2 }
    },
    Diagram(name: "Filter-tryFilter", inputs: ["-1-2-x-4-|"], label: "filter { $0 != \"1\" }.tryFilter { x throws }") {
        _, x in
        x[0].filter { $0 != "1" }.tryFilter { try rejectingX($0) == $0 }
    },
    Diagram(name: "CompactMap-compactMap", inputs: ["-1-x-30-4-|"], label: "compactMap { Int($0) }.compactMap { < 10 }")
    {
        _, x in
        x[0].compactMap { Int($0) }.compactMap { $0 < 10 ? $0 : nil }
    },
    Diagram(name: "CompactMap-map", inputs: ["-1-x-3-|"], label: "compactMap { Int($0) }.map { $0 * 10 }") { _, x in
        x[0].compactMap { Int($0) }.map { $0 * 10 }
    },
    Diagram(name: "TryMap-map", inputs: ["-a-b-x-c-|"], label: "tryMap { x throws }.map { $0.uppercased() }") {
        _, x in
        x[0].tryMap(rejectingX).map { $0.uppercased() }
    },
    Diagram(name: "TryMap-tryMap", inputs: ["-a-b-y-c-|"], label: "tryMap { x throws }.tryMap { y throws }") {
        _, x in
        x[0].tryMap(rejectingX).tryMap { $0 == "y" ? try rejectingX("x") : $0 }
    },
    Diagram(
        name: "TryFilter-filter", inputs: ["-1-2-x-4-|"], label: "tryFilter { x throws }.filter { $0 != \"1\" }"
    ) { _, x in
        x[0].tryFilter { try rejectingX($0) == $0 }.filter { $0 != "1" }
    },
    Diagram(
        name: "TryFilter-tryFilter", inputs: ["-1-2-y-4-|"], label: "tryFilter { $0 != \"1\" }.tryFilter { y throws }"
    ) { _, x in
        x[0].tryFilter { $0 != "1" }.tryFilter { $0 == "y" ? try rejectingX("x") == "" : true }
    },
    Diagram(
        name: "TryCompactMap-compactMap", inputs: ["-1-n-x-3-|"],
        label: "tryCompactMap { x throws; Int($0) }.compactMap { $0 * 10 }"
    ) { _, x in
        x[0].tryCompactMap { Int(try rejectingX($0)) }.compactMap { $0 * 10 }
    },
]
