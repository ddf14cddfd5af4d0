// SPDX-License-Identifier: Apache-2.0
import CombineExtras
import Foundation

// combine-demo: the programs of the team's scenarios document (docs/SCENARIOS.md), written as an
// Apple developer writes them, each printing a transcript of what happened.
//
//   swift run combine-demo            runs every scenario
//   swift run combine-demo NAME ...   runs the named ones (see `combine-demo --list`)
//   swift run combine-demo trace NAME runs one with CombineTrace on and writes its timeline

let scenarios: [(name: String, summary: String, run: () -> Void)] = [
    ("wizard", "§1 wizard graduation: compactMap, filter, prefix(3), assign", wizardGraduation),
    ("magic-trick", "§2 magic trick download: decode, catch inside flatMap, map(\\.name)", magicTrickDownload),
    ("signup", "§3 wizard school sign-up: debounce, Future, CombineLatest, receive(on:), assign", wizardSchoolSignup),
    ("wand", "§4 wand creation: Zip3 of three jobs, CombineLatest3 of three switches", wandCreation),
    (
        "search-input", "§5 search input: what throttle (latest: true/false) and debounce let through",
        searchInputThrottle
    ),
    ("live-search", "§5 live search over URLSession on a local server; a login form", liveSearch),
    ("designing-apis", "§6 Future and Deferred, retry, a query behind a subject with handleEvents", designingAPIs),
    ("custom-subscriber", "§7 a custom subscriber that asks for .max(3), then one more", customSubscriber),
    ("custom-publisher", "§7 a display-link-like custom publisher and subscription", customPublisher),
    ("record", "§7 Record replays a recorded sequence of values and a completion", recordReplay),
    ("extras", "CombineExtras: create (§7), amb (§7), withLatestFrom, share(replay:), as marbles", extrasDemo),
    (
        "concurrency",
        "a view model mixing Observation, async services and AsyncSequence through CombineExtras' bridges",
        concurrencyDemo
    ),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "trace" {
    guard arguments.count == 2, let scenario = scenarios.first(where: { $0.name == arguments[1] }) else {
        print("usage: combine-demo trace SCENARIO (see combine-demo --list)")
        exit(2)
    }
    let file = URL(fileURLWithPath: "combine-trace-\(scenario.name).json")
    let trace = CombineTrace.start()
    print("=== \(scenario.name), traced: \(scenario.summary)")
    scenario.run()
    do {
        try trace.stop(writingTo: file)
    } catch {
        print("combine-demo: could not write \(file.path): \(error)")
        exit(1)
    }
    print("")
    print("wrote \(file.path): \(trace.eventCount) events (\(trace.droppedEvents) dropped)")
    print("open it in https://ui.perfetto.dev (Open trace file) or chrome://tracing (Load):")
    print("one process per pipeline, one track per subscriber; values, completions and cancels are")
    print("instants, subscribing is a slice, and each track's outstanding demand is a counter")
} else if arguments.contains("--list") || arguments.contains("-h") || arguments.contains("--help") {
    print("usage: combine-demo [scenario ...] | combine-demo trace SCENARIO\n\nscenarios:")
    for scenario in scenarios {
        print("  \(scenario.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(scenario.summary)")
    }
} else {
    let unknown = arguments.filter { name in !scenarios.contains { $0.name == name } }
    if !unknown.isEmpty {
        print("combine-demo: unknown scenario \(unknown.joined(separator: ", ")); try --list")
        exit(2)
    }
    for scenario in scenarios where arguments.isEmpty || arguments.contains(scenario.name) {
        print("=== \(scenario.name): \(scenario.summary)")
        scenario.run()
        print("")
    }
}
