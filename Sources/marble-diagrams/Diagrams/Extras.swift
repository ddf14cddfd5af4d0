// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Foundation
import Testing

/// The event a marble name stands for in the `dematerialize` picture.
private let events: [String: Event<String, MarbleError>] = [
    "value(a)": .value("a"), "value(b)": .value("b"), "finished": .finished, "failure": .failure(MarbleError()),
]

/// Lanes for the `amb` pictures, titled as each picture's operator box names them: the second
/// lane publishes first and wins.
private func ambLanes(_ titles: [String]) -> [Input] {
    zip(["---a-b-|", "--1--2-|", "----x--|"], titles).map { hot($0, $1) }
}

/// The operators of CombineExtras.
@MainActor let extrasDiagrams: [Diagram] = [
    Diagram(
        name: "withLatestFrom", catalog: "CombineExtras",
        inputs: titled(["upstream", "other"], ["--a---b--|", "-1--2----|"]),
        label: "withLatestFrom(other) { $0 + $1 }"
    ) { _, x in
        x[0].withLatestFrom(x[1]) { $0 + $1 }
    },
    Diagram(
        name: "withLatestFrom-value", catalog: "CombineExtras",
        inputs: titled(["upstream", "other"], ["--a---b--|", "-1--2----|"]),
        label: "withLatestFrom(other)"
    ) { _, x in
        x[0].withLatestFrom(x[1])
    },
    Diagram(
        name: "withLatestFrom2", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q"], ["--a---b--|", "-1--2----|", "-x---y---|"]),
        label: "withLatestFrom(p, q) { $0 + $1.0 + $1.1 }"
    ) { _, x in
        x[0].withLatestFrom(x[1], x[2]) { $0 + $1.0 + $1.1 }
    },
    Diagram(
        name: "withLatestFrom2-value", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q"], ["--a---b--|", "-1--2----|", "-x---y---|"]),
        label: "withLatestFrom(p, q)"
    ) { _, x in
        x[0].withLatestFrom(x[1], x[2])
    },
    Diagram(
        name: "withLatestFrom3", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q", "r"], ["--a---b--|", "-1--2----|", "-x---y---|", "-A-------|"]),
        label: "withLatestFrom(p, q, r) { $0 + $1.0 + $1.1 + $1.2 }"
    ) { _, x in
        x[0].withLatestFrom(x[1], x[2], x[3]) { $0 + $1.0 + $1.1 + $1.2 }
    },
    Diagram(
        name: "withLatestFrom3-value", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q", "r"], ["--a---b--|", "-1--2----|", "-x---y---|", "-A-------|"]),
        label: "withLatestFrom(p, q, r)"
    ) { _, x in
        x[0].withLatestFrom(x[1], x[2], x[3])
    },
    Diagram(name: "amb", catalog: "CombineExtras", inputs: ambLanes(["upstream", "other"]), label: "amb(other)") {
        _, x in
        x[0].amb(x[1])
    },
    Diagram(
        name: "amb-many", catalog: "CombineExtras", inputs: ambLanes(["upstream", "p", "q"]), label: "amb(with: p, q)"
    ) { _, x in
        x[0].amb(with: x[1], x[2])
    },
    Diagram(
        name: "amb-collection", catalog: "CombineExtras", inputs: ambLanes(["p", "q", "r"]), label: "[p, q, r].amb()"
    ) { _, x in
        x.amb()
    },
    Diagram(
        name: "combineLatest-with", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q"], ["-a---c--|", "--1-2---|", "---x---|"]),
        label: "combineLatest(with: p, q)"
    ) { _, x in
        x[0].combineLatest(with: x[1], x[2])
    },
    Diagram(
        name: "combineLatest-collection", catalog: "CombineExtras",
        inputs: titled(["p", "q", "r"], ["-a---c--|", "--1-2---|", "---x---|"]),
        label: "[p, q, r].combineLatest()"
    ) { _, x in
        x.combineLatest()
    },
    Diagram(
        name: "zip-with", catalog: "CombineExtras",
        inputs: titled(["upstream", "p", "q"], ["-a---c-|", "--1-2---|", "---x--y-|"]),
        label: "zip(with: p, q)"
    ) { _, x in
        x[0].zip(with: x[1], x[2])
    },
    Diagram(
        name: "zip-collection", catalog: "CombineExtras",
        inputs: titled(["p", "q", "r"], ["-a---c-|", "--1-2---|", "---x--y-|"]),
        label: "[p, q, r].zip()"
    ) { _, x in
        x.zip()
    },
    Diagram(
        name: "merge-collection", catalog: "CombineExtras",
        inputs: titled(["p", "q", "r"], ["-a---c-|", "--b---d|", "---e---|"]),
        label: "[p, q, r].merge()"
    ) { _, x in
        x.merge()
    },
    Diagram(
        name: "concatMap", catalog: "CombineExtras",
        inputs: [cold("-A-B--------|", "upstream"), hot("--a--b|", "A"), hot("----1---2|", "B")],
        label: "concatMap { $0 == \"A\" ? A : B }"
    ) { _, x in
        x[0].concatMap { $0 == "A" ? x[1] : x[2] }
    },
    Diagram(
        name: "flatMapLatest", catalog: "CombineExtras",
        inputs: [cold("-A----B-----|", "upstream"), hot("--a--b--c---|", "A"), hot("-------1--2-|", "B")],
        label: "flatMapLatest { $0 == \"A\" ? A : B }"
    ) { _, x in
        x[0].flatMapLatest { $0 == "A" ? x[1] : x[2] }
    },
    Diagram(name: "materialize", catalog: "CombineExtras", inputs: ["-a-b-#"], label: "materialize()") { _, x in
        x[0].materialize()
    },
    Diagram(
        name: "dematerialize", catalog: "CombineExtras", inputs: ["-'value(a)'-'value(b)'-'failure'"],
        label: "dematerialize()"
    ) { run, _ in
        run.test.cold("-'value(a)'-'value(b)'-'failure'", values: events).dematerialize()
    },
    Diagram(name: "values", catalog: "CombineExtras", inputs: ["-a-b-#"], label: "materialize().values()") { _, x in
        x[0].materialize().values()
    },
    Diagram(name: "failures", catalog: "CombineExtras", inputs: ["-a-b-#"], label: "materialize().failures()") {
        _, x in
        x[0].materialize().failures()
    },
    Diagram(
        name: "filterMany", catalog: "CombineExtras", inputs: ["-'a1b2'-'3c'-|"],
        label: "map(Array.init).filterMany(\\.isNumber)"
    ) { _, x in
        x[0].map(Array.init).filterMany(\.isNumber)
    },
    Diagram(
        name: "mapMany", catalog: "CombineExtras", inputs: ["-'ab'-'c'-|"],
        label: "map(Array.init).mapMany { $0.uppercased() }"
    ) { _, x in
        x[0].map(Array.init).mapMany { $0.uppercased() }
    },
    Diagram(name: "ignoreFailure", catalog: "CombineExtras", inputs: ["-a-b-#"], label: "ignoreFailure(…)") { run in
        let x = run.inputs
        return [
            Output(x[0].ignoreFailure(), title: "completeImmediately: true"),
            Output(x[0].ignoreFailure(completeImmediately: false), title: "completeImmediately: false"),
        ]
    },
    Diagram(
        name: "ignoreFailure-setFailureType", catalog: "CombineExtras", inputs: ["-a-b-#"],
        label: "ignoreFailure(setFailureType: URLError.self)"
    ) { _, x in
        x[0].ignoreFailure(setFailureType: URLError.self)
    },
    Diagram(name: "mapToResult", catalog: "CombineExtras", inputs: ["-a-b-#"], label: "mapToResult()") { _, x in
        x[0].mapToResult()
    },
    Diagram(name: "mapToValue", catalog: "CombineExtras", inputs: ["-a-b-|"], label: "mapToValue(\"z\")") { _, x in
        x[0].mapToValue("z")
    },
    Diagram(name: "mapToVoid", catalog: "CombineExtras", inputs: ["-a-b-|"], label: "mapToVoid()") { _, x in
        x[0].mapToVoid()
    },
    Diagram(name: "nwise", catalog: "CombineExtras", inputs: ["-a-b-c-d-|"], label: "nwise(3)") { _, x in
        x[0].nwise(3)
    },
    Diagram(name: "pairwise", catalog: "CombineExtras", inputs: ["-a-b-c-d-|"], label: "pairwise()") { _, x in
        x[0].pairwise()
    },
    Diagram(name: "partition", catalog: "CombineExtras", inputs: ["-1-2-3-4-|"], label: "partition { $0 is even }") {
        run in
        let (matches, nonMatches) = run.inputs[0].partition { number($0) % 2 == 0 }
        return [Output(matches, title: "matches"), Output(nonMatches, title: "nonMatches")]
    },
    Diagram(
        name: "prefix-duration", catalog: "CombineExtras", inputs: ["-a-b-c-d-|"],
        label: "prefix(duration: 4 ticks, on: scheduler)"
    ) { run, x in
        x[0].prefix(duration: run.ticks(4), on: run.scheduler)
    },
    Diagram(
        name: "removeAllDuplicates", catalog: "CombineExtras", inputs: ["-a-b-a-c-b-|"], label: "removeAllDuplicates()"
    ) { _, x in
        x[0].removeAllDuplicates()
    },
    Diagram(
        name: "removeAllDuplicates-by", catalog: "CombineExtras", inputs: ["-a-B-A-c-b-|"],
        label: "removeAllDuplicates { same letter, any case }"
    ) { _, x in
        x[0].removeAllDuplicates { $0.lowercased() == $1.lowercased() }
    },
    Diagram(
        name: "retry-when", catalog: "CombineExtras", inputs: ["-a-#"],
        label: "retry(2) { _ in Just(()).delay(for: 2 ticks) }", ticks: 15
    ) { run, x in
        x[0].retry(2) { _ in Just(()).delay(for: run.ticks(2), scheduler: run.scheduler) }
    },
    Diagram(
        name: "setOutputType", catalog: "CombineExtras", inputs: ["-a-b-|"],
        label: "ignoreOutput().setOutputType(to: String.self)"
    ) { _, x in
        x[0].ignoreOutput().setOutputType(to: String.self)
    },
    Diagram(name: "share-replay", catalog: "CombineExtras", inputs: [hot("-a-b-c-d-|")], label: "share(replay: 2)") {
        run in
        let shared = run.inputs[0].share(replay: 2)
        return [Output(shared, title: "sink 1"), Output(shared, at: 6, title: "sink 2")]
    },
    Diagram(name: "toggle", catalog: "CombineExtras", inputs: ["-t-f-t-|"], label: "map { $0 == \"t\" }.toggle()") {
        _, x in
        x[0].map { $0 == "t" }.toggle()
    },
    Diagram(
        name: "interval", catalog: "CombineExtras", inputs: [], label: "Publishers.interval(2 ticks, scheduler:)",
        ticks: 10
    ) { run, _ in
        Publishers.interval(run.ticks(2), scheduler: run.scheduler)
    },
    Diagram(
        name: "create", catalog: "CombineExtras", inputs: [],
        label: "AnyPublisher.create { send a, then b, then finish }", ticks: 6
    ) { run, _ in
        AnyPublisher<String, MarbleError>.create { subscriber in
            run.at(1) { subscriber.send("a") }
            run.at(3) { subscriber.send("b") }
            run.at(4) { subscriber.send(completion: .finished) }
            return AnyCancellable {}
        }
    },
]
