// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting

/// Reducing, counting and matching: the operators that publish one answer about many values
/// (or groups of them).
@MainActor let reducingDiagrams: [Diagram] = [
    Diagram(name: "collect", inputs: ["-a-b-c-|"], label: "collect()") { _, x in x[0].collect() },
    Diagram(name: "collect-count", inputs: ["-a-b-c-d-e-|"], label: "collect(2)") { _, x in x[0].collect(2) },
    Diagram(
        name: "collect-byTime", inputs: ["-ab--c----d-|"], label: "collect(.byTime(scheduler, 3 ticks))"
    ) { run, x in
        x[0].collect(.byTime(run.scheduler, run.ticks(3)))
    },
    Diagram(name: "ignoreOutput", inputs: ["-a-b-c-|"], label: "ignoreOutput()") { _, x in x[0].ignoreOutput() },
    Diagram(name: "reduce", inputs: ["-1-2-3-|"], label: "reduce(0, +)") { _, x in
        x[0].reduce(0) { $0 + number($1) }
    },
    Diagram(name: "tryReduce", inputs: ["-1-2-x-3-|"], label: "tryReduce(0) { x throws; + }") { _, x in
        x[0].tryReduce(0) { $0 + number(try rejectingX($1)) }
    },
    Diagram(name: "count", inputs: ["-a-b-c-|"], label: "count()") { _, x in x[0].count() },
    Diagram(name: "max", inputs: ["-b-c-a-|"], label: "max()") { _, x in x[0].max() },
    Diagram(name: "max-by", inputs: ["-'bb'-c-'aaa'-|"], label: "max { $0.count < $1.count }") { _, x in
        x[0].max { $0.count < $1.count }
    },
    Diagram(name: "tryMax", inputs: ["-b-c-x-a-|"], label: "tryMax { x throws; < }") { _, x in
        x[0].tryMax { try rejectingX($0) < rejectingX($1) }
    },
    Diagram(name: "min", inputs: ["-b-c-a-|"], label: "min()") { _, x in x[0].min() },
    Diagram(name: "min-by", inputs: ["-'bb'-c-'aaa'-|"], label: "min { $0.count < $1.count }") { _, x in
        x[0].min { $0.count < $1.count }
    },
    Diagram(name: "tryMin", inputs: ["-b-c-x-a-|"], label: "tryMin { x throws; < }") { _, x in
        x[0].tryMin { try rejectingX($0) < rejectingX($1) }
    },
    Diagram(name: "contains", inputs: ["-a-b-c-|"], label: "contains(\"b\")") { _, x in x[0].contains("b") },
    Diagram(name: "contains-where", inputs: ["-1-3-4-5-|"], label: "contains { $0 is even }") { _, x in
        x[0].contains { number($0) % 2 == 0 }
    },
    Diagram(name: "tryContains", inputs: ["-1-x-4-|"], label: "tryContains { x throws; $0 is even }") { _, x in
        x[0].tryContains { number(try rejectingX($0)) % 2 == 0 }
    },
    Diagram(name: "allSatisfy", inputs: ["-2-4-5-6-|"], label: "allSatisfy { $0 is even }") { _, x in
        x[0].allSatisfy { number($0) % 2 == 0 }
    },
    Diagram(name: "tryAllSatisfy", inputs: ["-2-x-6-|"], label: "tryAllSatisfy { x throws; $0 is even }") { _, x in
        x[0].tryAllSatisfy { number(try rejectingX($0)) % 2 == 0 }
    },
]
