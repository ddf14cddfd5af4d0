// SPDX-License-Identifier: Apache-2.0
import Combine
import Dependencies
import Dispatch

/// swift-dependencies' `mainQueue`, overridden with combine-schedulers' test scheduler.
struct Model {
    @Dependency(\.mainQueue) var mainQueue
}

let scheduler = DispatchQueue.test
let delivered = withDependencies {
    $0.mainQueue = scheduler.eraseToAnyScheduler()
} operation: {
    var values: [Int] = []
    let cancellable = Just(1).delay(for: .seconds(2), scheduler: Model().mainQueue).sink { values.append($0) }
    scheduler.advance(by: .seconds(1))
    let early = values
    scheduler.advance(by: .seconds(1))
    cancellable.cancel()
    return "after 1 s \(early), after 2 s \(values)"
}
print("swift-dependencies mainQueue:", delivered)
