// SPDX-License-Identifier: Apache-2.0
import Baseline
import Dispatch
import Foundation
import Synchronization

// One source for two targets: `OursScenarios` compiles it against this library,
// `OpenCombineScenarios` (through a symbolic link, with OPENCOMBINE defined) against
// OpenCombine 0.14.0, so both run exactly the same code.
#if OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
#else
@_spi(Diagnostics) import Combine
import CombineExtras
#endif

// MARK: Swift concurrency bridges (issue 18), continued from Scenarios.swift

/// A `Future`'s promise handed to the task that fulfils it.
private struct PromiseBox<Output>: @unchecked Sendable {
    let fulfil: (Result<Output, Never>) -> Void
}

extension Scenarios {
    /// What users write where there is no `asyncMap`: one `Future` and one `Task` per value,
    /// one at a time.
    public static func futureTaskFlatMap(_ count: Int) -> Int {
        let state = Completion()
        let cancellable = (0..<count).publisher
            .flatMap(maxPublishers: .max(1)) { value in
                Future<Int, Never> { promise in
                    let box = PromiseBox(fulfil: promise)
                    Task { box.fulfil(.success(await asyncBump(value))) }
                }
            }
            .sink(receiveCompletion: { _ in state.done.signal() }, receiveValue: { state.sum &+= $0 })
        state.done.wait()
        cancellable.cancel()
        return state.sum
    }

    /// What users write where there is no `AsyncSequence` publisher: a task pushing the
    /// elements into a subject, demand ignored.
    public static func asyncSequenceThroughSubject(_ count: Int) -> Int {
        let state = Completion()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink(
            receiveCompletion: { _ in state.done.signal() }, receiveValue: { state.sum &+= $0 })
        let feed = SubjectBox(subject: subject)
        Task {
            for await value in CountingAsyncSequence(count) { feed.subject.send(value) }
            feed.subject.send(completion: .finished)
        }
        state.done.wait()
        cancellable.cancel()
        return state.sum
    }

    #if !OPENCOMBINE
    /// `asyncMap`: one transform at a time, in order, within demand.
    public static func asyncMapSequence(_ count: Int) -> Int {
        let state = Completion()
        let cancellable = (0..<count).publisher
            .asyncMap { await asyncBump($0) }
            .sink(receiveCompletion: { _ in state.done.signal() }, receiveValue: { state.sum &+= $0 })
        state.done.wait()
        cancellable.cancel()
        return state.sum
    }

    /// `AsyncSequence.publisher`: an element pulled per unit of demand.
    public static func asyncSequencePublisher(_ count: Int) -> Int {
        let state = Completion()
        let cancellable = CountingAsyncSequence(count).publisher
            .sink(receiveCompletion: { _ in state.done.signal() }, receiveValue: { state.sum &+= $0 })
        state.done.wait()
        cancellable.cancel()
        return state.sum
    }

    /// There and back: `AsyncSequence.publisher` then `Publisher.values`, consumed by
    /// `for await`.
    public static func valuesRoundTrip(_ count: Int) -> Int {
        waitForTask {
            var sum = 0
            for await value in CountingAsyncSequence(count).publisher.values { sum &+= value }
            return sum
        }
    }
    #endif
}

/// A subject handed to the feeding task.
private struct SubjectBox: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>
}
