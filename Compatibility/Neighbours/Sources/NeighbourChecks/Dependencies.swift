// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSchedulers
import Dependencies
import Dispatch

/// The service's `mainQueue` (MainQueue.swift), overridden with combine-schedulers' test scheduler
/// through swift-dependencies, drives a `delay` on virtual time.
public func mainQueueDependency() -> String {
    struct Model {
        @Dependency(\.mainQueue) var mainQueue
    }
    let scheduler = DispatchQueue.test
    return withDependencies {
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
}

/// Every check, a line each, as the program prints them and the tests expect them.
public func lines() async -> [String] {
    let route: String
    do { route = try await serverRoute() } catch { route = "failed: \(error)" }
    return [
        "GRDB: " + ((try? grdbObservation()) ?? "failed"),
        "combine-schedulers: " + schedulers(),
        "coders: " + coders(),
        "swift-dependencies mainQueue: " + mainQueueDependency(),
        "Hummingbird: " + route,
    ]
}
