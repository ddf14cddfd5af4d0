// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

// marble-diagrams: draws each operator's marble diagram from a run of the operator on the
// virtual-time TestScheduler (never by hand, so a picture cannot disagree with the code), into
// the DocC catalogs' Resources folders, where the operators' documentation shows them.
//
//   swift run marble-diagrams           writes the pictures
//   swift run marble-diagrams --check   exits 1 when a committed picture is not what a run draws
//
// The diagrams are listed by family in Diagrams/; each names its pipeline once.

let diagrams: [Diagram] =
    transformingDiagrams + filteringDiagrams + reducingDiagrams + sequenceDiagrams + combiningDiagrams
    + errorDiagrams + timeDiagrams + sharingDiagrams + otherDiagrams + fusedDiagrams + specialisedDiagrams
    + extrasDiagrams

/// The input lane as its marble says (a hot lane also shows who subscribed and cancelled).
func lane(_ input: Input, subscriptions: [String]) -> MarbleSVG.Lane {
    let diagram = try! MarbleDiagram(input.marble)
    var marks: [MarbleSVG.Lane.Mark] = []
    if input.kind == .hot {
        for log in subscriptions {
            let subscribed = log.prefix { $0 == "-" }.count
            marks.append(.init(tick: subscribed, kind: .subscribed))
            if log.hasSuffix("[^!]") {
                marks.append(.init(tick: subscribed, kind: .cancelled))
            } else if log.hasSuffix("!") {
                marks.append(.init(tick: log.count - 1, kind: .cancelled))
            }
        }
    }
    return MarbleSVG.Lane(
        title: input.title,
        ticks: diagram.ticks.map { events in
            events.map { event in
                switch event {
                case .value(let label): .value(label)
                case .finished: .finished
                case .failure: .failure
                }
            }
        }, marks: marks)
}

/// Runs the diagram's pipelines tick by tick and draws what came out. An output lane subscribes
/// at the start of its tick, before the inputs' events of that tick (its subscription is
/// scheduled before the inputs are made, and the scheduler keeps that order within an instant).
func draw(_ diagram: Diagram) -> String {
    let test = MarbleTest()
    final class Lanes {
        var outputs: [Output] = []
        var recorded: [[[MarbleSVG.Lane.Event]]] = []
        var subscriptions: [AnyCancellable] = []
    }
    let lanes = Lanes()
    let run = Run(test: test)
    let longest = diagram.inputs.map { try! MarbleDiagram($0.marble).tickCount }.max() ?? 0
    let ticks = diagram.ticks ?? longest + 1
    for tick in 0..<ticks {
        test.scheduler.schedule(after: VirtualTime.zero.advanced(by: run.ticks(tick))) {
            for (index, output) in lanes.outputs.enumerated() where output.start == tick {
                lanes.subscriptions.append(
                    output.attach(run) { event in
                        if test.currentTick < ticks { lanes.recorded[index][test.currentTick].append(event) }
                    })
            }
        }
    }
    run.makeInputs(diagram.inputs)
    lanes.outputs = diagram.make(run)
    lanes.recorded = lanes.outputs.map { _ in Array(repeating: [], count: ticks) }
    precondition(lanes.outputs.allSatisfy { $0.start < ticks }, "\(diagram.name): an output starts after the drawing")
    // Cancelled one tick past the drawing, so that only the operators' own cancels show.
    test.scheduler.advance(to: VirtualTime.zero.advanced(by: run.ticks(ticks)))
    for subscription in lanes.subscriptions { subscription.cancel() }
    return MarbleSVG(
        inputs: zip(diagram.inputs, run.inputs).map { lane($0, subscriptions: $1.subscriptions) },
        operatorLabel: diagram.label,
        outputs: zip(lanes.outputs, lanes.recorded).map { output, recorded in
            MarbleSVG.Lane(
                title: output.title, ticks: recorded,
                marks: output.start > 0 ? [.init(tick: output.start, kind: .subscribed)] : [])
        },
        tickCount: ticks
    ).render()
}

let checking = CommandLine.arguments.contains("--check")
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
var stale: [String] = []
var names: Set<String> = []
for diagram in diagrams {
    precondition(names.insert("\(diagram.catalog)/\(diagram.name)").inserted, "two diagrams named \(diagram.name)")
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
// A picture no diagram draws any more is stale too.
for catalog in Set(diagrams.map(\.catalog)) {
    let folder = root.appendingPathComponent("Sources/\(catalog)/\(catalog).docc/Resources")
    for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where file.hasPrefix("marble-") && file.hasSuffix(".svg")
        && !names.contains("\(catalog)/\(file.dropFirst(7).dropLast(4))")
    {
        stale.append(folder.appendingPathComponent(file).path + " (no diagram draws it)")
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
    for path in stale { print("marble-diagrams: remove \(path)") }
    print("marble-diagrams: wrote \(diagrams.count) pictures")
}
