// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Foundation
import Testing

// marble-diagrams: draws each operator's marble diagram from a run of the operator on the
// virtual-time TestScheduler (never by hand, so a picture cannot disagree with the code), into
// the DocC catalogs' Resources folders, where the operators' documentation shows them.
//
//   swift run marble-diagrams           writes the pictures
//   swift run marble-diagrams --check   exits 1 when a committed picture is not what a run draws

/// One operator's diagram: its input lanes as marbles (cold sources, one tick per character),
/// what the operator box says, and the pipeline that makes the output lane.
struct Diagram {
    let name: String
    let catalog: String
    let inputs: [String]
    let label: String
    let make: (MarbleTest, [MarblePublisher<String, MarbleError>]) -> AnyPublisher<String, MarbleError>
}

/// The operators drawn so far (the rest of Apple's operators and CombineExtras' follow the same
/// shape: a name, the input marbles and the pipeline).
let diagrams: [Diagram] = [
    Diagram(name: "map", catalog: "Combine", inputs: ["-1-2-3-|"], label: "map { $0 * 10 }") { m, inputs in
        inputs[0].map { "\(Int($0)! * 10)" }.eraseToAnyPublisher()
    },
    Diagram(name: "filter", catalog: "Combine", inputs: ["-1-2-3-4-|"], label: "filter { $0 is even }") { m, inputs in
        inputs[0].filter { Int($0)! % 2 == 0 }.eraseToAnyPublisher()
    },
    Diagram(name: "scan", catalog: "Combine", inputs: ["-1-2-3-|"], label: "scan(0, +)") { m, inputs in
        inputs[0].scan("0") { "\(Int($0)! + Int($1)!)" }.eraseToAnyPublisher()
    },
    Diagram(name: "removeDuplicates", catalog: "Combine", inputs: ["-a-a-b-b-a-|"], label: "removeDuplicates()") {
        m, inputs in
        inputs[0].removeDuplicates().eraseToAnyPublisher()
    },
    Diagram(name: "compactMap", catalog: "Combine", inputs: ["-1-x-3-|"], label: "compactMap { Int($0) }") {
        m, inputs in
        inputs[0].compactMap { Int($0).map(String.init) }.eraseToAnyPublisher()
    },
    Diagram(name: "merge", catalog: "Combine", inputs: ["-a---c-|", "--b---d|"], label: "merge(with:)") { m, inputs in
        inputs[0].merge(with: inputs[1]).eraseToAnyPublisher()
    },
    Diagram(name: "zip", catalog: "Combine", inputs: ["-a---c-|", "--1-2---|"], label: "zip") { m, inputs in
        inputs[0].zip(inputs[1]).map { $0 + $1 }.eraseToAnyPublisher()
    },
    Diagram(name: "combineLatest", catalog: "Combine", inputs: ["-a---c--|", "--1-2---|"], label: "combineLatest") {
        m, inputs in
        inputs[0].combineLatest(inputs[1]).map { $0 + $1 }.eraseToAnyPublisher()
    },
    Diagram(name: "debounce", catalog: "Combine", inputs: ["-ab---cd----|"], label: "debounce(for: 2 ticks)") {
        m, inputs in
        inputs[0].debounce(for: .seconds(2), scheduler: m.scheduler).eraseToAnyPublisher()
    },
    Diagram(name: "prefix", catalog: "Combine", inputs: ["-a-b-c-d-|"], label: "prefix(2)") { m, inputs in
        inputs[0].prefix(2).eraseToAnyPublisher()
    },
    Diagram(name: "catch", catalog: "Combine", inputs: ["-a-b-#"], label: "catch { _ in Just(\"z\") }") { m, inputs in
        inputs[0].catch { _ in Just("z").setFailureType(to: MarbleError.self) }.eraseToAnyPublisher()
    },
    Diagram(
        name: "withLatestFrom", catalog: "CombineExtras", inputs: ["--a---b--|", "-1--2----|"], label: "withLatestFrom"
    ) { m, inputs in
        inputs[0].withLatestFrom(inputs[1]) { $0 + $1 }.eraseToAnyPublisher()
    },
]

func lane(_ marble: String) -> MarbleSVG.Lane {
    let diagram = try! MarbleDiagram(marble)
    return MarbleSVG.Lane(
        ticks: diagram.ticks.map { events in
            events.map { event in
                switch event {
                case .value(let label): .value(label)
                case .finished: .finished
                case .failure: .failure
                }
            }
        })
}

func draw(_ diagram: Diagram) -> String {
    let test = MarbleTest()
    let sources = diagram.inputs.map { test.cold($0) }
    let ticks = (diagram.inputs.map(\.count).max() ?? 0) + 1
    let recording = test.record(diagram.make(test, sources), ticks: ticks)
    let output = MarbleSVG.Lane(
        ticks: recording.ticks.map { events in
            events.map { event in
                switch event {
                case .value(let label): .value(label)
                case .completion(.finished): .finished
                case .completion(.failure): .failure
                }
            }
        })
    return MarbleSVG(inputs: diagram.inputs.map(lane), operatorLabel: diagram.label, output: output, tickCount: ticks)
        .render()
}

let checking = CommandLine.arguments.contains("--check")
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
var stale: [String] = []
for diagram in diagrams {
    let file = root.appendingPathComponent(
        "Sources/\(diagram.catalog)/\(diagram.catalog).docc/Resources/marble-\(diagram.name).svg")
    let svg = draw(diagram)
    if checking {
        if (try? String(contentsOf: file, encoding: .utf8)) != svg { stale.append(file.path) }
    } else {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try svg.write(to: file, atomically: true, encoding: .utf8)
    }
}
if checking {
    if stale.isEmpty {
        print("marble-diagrams: \(diagrams.count) pictures are what the operators draw")
    } else {
        print("marble-diagrams: not what the operators draw now (run `swift run marble-diagrams`):")
        for path in stale { print("  \(path)") }
        exit(1)
    }
} else {
    print("marble-diagrams: wrote \(diagrams.count) pictures")
}
