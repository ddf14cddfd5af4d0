// SPDX-License-Identifier: Apache-2.0
import Combine

struct SpellFailed: Error, CustomStringConvertible {
    var description: String { "SpellFailed" }
}

/// The team's scenarios document (docs/SCENARIOS.md §7): `Record` replays a recorded sequence of
/// values and a completion to each subscriber.
func recordReplay() {
    let record = Record<String, SpellFailed> { recording in
        recording.receive("lumos")
        recording.receive("nox")
        recording.receive(completion: .failure(SpellFailed()))
    }
    for name in ["first", "second"] {
        let cancellable = record.sink(
            receiveCompletion: { print("  \(name) subscriber: \($0)") },
            receiveValue: { print("  \(name) subscriber: \($0)") })
        cancellable.cancel()
    }
}
