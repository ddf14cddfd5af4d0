// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation

/// The team's scenarios document (docs/SCENARIOS.md §4). `Publishers.Zip3` of three long-running
/// jobs (Futures fulfilled on another queue) enables "Continue" only when all three are
/// done; `CombineLatest3` of three switches enables "Play" while all are on.
final class Button {
    let title: String
    var isEnabled = false {
        didSet { print("  \(title).isEnabled = \(isEnabled)") }
    }

    init(title: String) {
        self.title = title
    }
}

func wandCreation() {
    func job(_ name: String, after milliseconds: Int) -> Future<String, Never> {
        Future { promise in
            // As with Apple's Combine in Swift 6 mode, the promise is not `Sendable`: it is
            // handed to the queue's closure as a value the code vouches for.
            nonisolated(unsafe) let promise = promise
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                print("  job \(name) done")
                promise(.success(name))
            }
        }
    }

    let continueButton = Button(title: "continue")
    let done = DispatchSemaphore(value: 0)
    let jobs = Publishers.Zip3(job("wood", after: 30), job("core", after: 10), job("polish", after: 20))
        .map { _ in true }
        .sink { enabled in
            continueButton.isEnabled = enabled
            done.signal()
        }
    done.wait()
    jobs.cancel()

    let playButton = Button(title: "play")
    let switches = (0..<3).map { _ in CurrentValueSubject<Bool, Never>(false) }
    let play = Publishers.CombineLatest3(switches[0], switches[1], switches[2])
        .map { $0 && $1 && $2 }
        .removeDuplicates()
        .assign(to: \.isEnabled, on: playButton)
    for (index, value) in [(0, true), (1, true), (2, true), (1, false)] {
        print("  switch \(index) -> \(value)")
        switches[index].value = value
    }
    play.cancel()
}
