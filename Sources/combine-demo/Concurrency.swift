// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import Foundation
import Observation

// `combine-demo concurrency`: a view model that mixes the three worlds — an `@Observable`
// model, `async` services and `AsyncSequence`s — through CombineExtras' bridges:
// `observationPublisher(for:)`, `asyncMapLatest`, `asyncMap(maxConcurrent:)`,
// `AsyncSequence.publisher`, `Future { await … }` and a `Clock` as a scheduler.

/// An `async` service, as server libraries write them.
private actor SpellCatalog {
    private let spells = ["accio", "alohomora", "expelliarmus", "expecto patronum", "lumos", "lumos maxima"]

    func search(_ prefix: String) async -> [String] {
        try? await Task.sleep(for: .milliseconds(30))  // a round trip
        return spells.filter { $0.hasPrefix(prefix) }
    }

    func details(_ spell: String) async -> String {
        try? await Task.sleep(for: .milliseconds(10 * (6 - spell.count % 6)))
        return "\(spell) (\(spell.count) letters)"
    }

    func welcome() async -> String { "welcome back, wizard" }
}

/// The view model: `query` is typed by the user; `results` follow it.
@MainActor
@Observable
private final class SpellSearchModel {
    var query = ""
    var results: [String] = []
}

/// What the demo keeps while it runs, on the main actor.
@MainActor
private final class DemoState {
    var cancellables = Set<AnyCancellable>()
    var details: [String]?
}

func concurrencyDemo() {
    MainActor.assumeIsolated { runConcurrencyDemo() }
}

@MainActor
private func runConcurrencyDemo() {
    let catalog = SpellCatalog()
    let model = SpellSearchModel()
    let state = DemoState()

    // 1. `Future { await … }`: an async call as a one-shot publisher.
    Future { await catalog.welcome() }
        .receive(on: DispatchQueue.main)
        .sink { print("future:       \($0)") }
        .store(in: &state.cancellables)

    // 2. `AsyncSequence.publisher`: a stream of server events, pulled only as demanded.
    let (events, continuation) = AsyncStream<String>.makeStream()
    events.publisher
        .receive(on: DispatchQueue.main)
        .sink { print("server event: \($0)") }
        .store(in: &state.cancellables)

    // 3. The search: the model's `query` (Observation, read on the main actor) → debounced on
    //    a clock → an async search, the latest query winning (a query typed over is cancelled)
    //    → back into the model on the main queue.
    model.observationPublisher(for: \.query)
        .dropFirst()
        .debounce(for: .milliseconds(80), scheduler: ContinuousClock().scheduler)
        .removeDuplicates()
        .handleEvents(receiveOutput: { print("searching:    \"\($0)\"") })
        .asyncMapLatest { await catalog.search($0) }
        .receive(on: DispatchQueue.main)
        .sink { results in
            MainActor.assumeIsolated { model.results = results }
            print("results:      \(results)")
        }
        .store(in: &state.cancellables)

    Task { @MainActor in
        continuation.yield("connected")
        for text in ["l", "lu", "lum"] {  // typed quickly: one search, for "lum"
            model.query = text
            try? await Task.sleep(for: .milliseconds(15))
        }
        try? await Task.sleep(for: .milliseconds(400))
        model.query = "ex"
        try? await Task.sleep(for: .milliseconds(400))
        continuation.yield("searches done")
        continuation.finish()
        // 4. `asyncMap(maxConcurrent:)`: details of every result, three at a time, in order.
        model.results.publisher
            .asyncMap(maxConcurrent: 3, ordering: .inputOrder) { await catalog.details($0) }
            .collect()
            .receive(on: DispatchQueue.main)
            .sink { lines in MainActor.assumeIsolated { state.details = lines } }
            .store(in: &state.cancellables)
    }
    while state.details == nil {
        RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01))
    }
    for line in state.details ?? [] { print("details:      \(line)") }
    state.cancellables.removeAll()
}
