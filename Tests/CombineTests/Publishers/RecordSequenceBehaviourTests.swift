// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

@Suite("Record: recordings, playback and coding")
struct RecordBehaviourTests {
    @Test func recordingBuiltStepByStep() {
        var recording = Record<Int, CoreTestError>.Recording()
        #expect(recording.output.isEmpty)
        #expect(recording.completion == .finished)
        recording.receive(1)
        recording.receive(2)
        #expect(recording.output == [1, 2])
        recording.receive(completion: .failure(CoreTestError(code: 3)))
        #expect(recording.completion == .failure(CoreTestError(code: 3)))
        let defaultCompletion = Record<Int, CoreTestError>.Recording(output: [4])
        #expect(defaultCompletion.completion == .finished)
    }

    @Test func threeInitialisersPlayTheSameRecording() {
        let failure = Subscribers.Completion<CoreTestError>.failure(CoreTestError(code: 1))
        let records = [
            Record<Int, CoreTestError> { recording in
                recording.receive(7)
                recording.receive(8)
                recording.receive(completion: failure)
            },
            Record(recording: .init(output: [7, 8], completion: failure)),
            Record(output: [7, 8], completion: failure),
        ]
        for record in records {
            #expect(record.recording.output == [7, 8])
            #expect(record.recording.completion == failure)
            let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .max(1), onValue: { _ in .max(1) })
            record.subscribe(subscriber)
            #expect(subscriber.events == [.subscription, .value(7), .value(8), .completion(failure)])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func emptyRecordingCompletesOnSubscriptionWithoutDemand() {
        let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        Record<Int, CoreTestError>(output: [], completion: .failure(CoreTestError(code: 5))).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(CoreTestError(code: 5)))])
    }

    @Test func playbackIsWithinDemandAndFinishesWithTheLastValue() {
        let record = Record<Int, Never>(output: [1, 2, 3, 4], completion: .finished)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        record.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(3))
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
        #expect(subscriber.violations.isEmpty)
    }

    @Test func recordIsCodable() throws {
        let record = Record<String, CoreTestError>(output: ["x", "y"], completion: .failure(CoreTestError(code: 9)))
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<String, CoreTestError>.self, from: data)
        #expect(decoded.recording.output == ["x", "y"])
        #expect(decoded.recording.completion == .failure(CoreTestError(code: 9)))
        let subscriber = TestSubscriber<String, CoreTestError>()
        decoded.subscribe(subscriber)
        #expect(
            subscriber.events == [
                .subscription, .value("x"), .value("y"), .completion(.failure(CoreTestError(code: 9))),
            ])

        let finished = Record<Int, CoreTestError>(output: [], completion: .finished)
        let finishedCopy = try JSONDecoder().decode(
            Record<Int, CoreTestError>.self, from: try JSONEncoder().encode(finished))
        #expect(finishedCopy.recording.output.isEmpty)
        #expect(finishedCopy.recording.completion == .finished)
    }

    @Test func receivingAfterTheCompletionTraps() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                var recording = Record<Int, Never>.Recording()
                recording.receive(completion: .finished)
                recording.receive(1)
            }
        }
        #expect(standardErrorText(of: result).contains("Record.Recording"))
    }

    @Test func completingTwiceTraps() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                var recording = Record<Int, Never>.Recording()
                recording.receive(completion: .finished)
                recording.receive(completion: .finished)
            }
        }
    }
}

@Suite("Publishers.Sequence: demand, re-entrancy, cancellation")
struct SequenceBehaviourTests {
    @Test func storesItsSequenceAndCompares() {
        let publisher = Publishers.Sequence<[Int], CoreTestError>(sequence: [1, 2])
        #expect(publisher.sequence == [1, 2])
        #expect(publisher == Publishers.Sequence(sequence: [1, 2]))
        #expect([1, 2].publisher.sequence == [1, 2])
    }

    @Test(arguments: [1, 2, 5, 9])
    func boundedDemandIsNeverExceeded(_ step: Int) {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(step))
        (1...9).publisher.subscribe(subscriber)
        var expected = Array(1...min(step, 9))
        #expect(subscriber.values == expected)
        while subscriber.completion == nil {
            subscriber.request(.max(step))
            expected = Array(1...min(expected.count + step, 9))
            #expect(subscriber.values == expected)
        }
        #expect(subscriber.values == Array(1...9))
        #expect(subscriber.completion == .finished)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func demandReturnedFromReceiveAddsToTheOutstandingDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { $0 == 1 ? .max(2) : .none })
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        #expect(subscriber.completion == nil)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func finishesRightAfterTheLastElementWithoutMoreDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        (1...2).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(subscriber.outstandingDemand == .none)
    }

    @Test func emptySequenceCompletesOnSubscriptionForAFailingType() {
        let subscriber = TestSubscriber<Int, CoreTestError>(initialDemand: .none)
        Publishers.Sequence<[Int], CoreTestError>(sequence: []).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func reentrantRequestFromReceiveLoopsInsteadOfNesting() {
        let me = LockedValue<TestSubscriber<Int, Never>?>(nil)
        let depth = LockedValue(0)
        let deepest = LockedValue(0)
        let subscriber = TestSubscriber<Int, Never>(
            initialDemand: .max(1),
            onValue: { _ in
                let now = depth.withLock {
                    $0 += 1
                    return $0
                }
                deepest.withLock { $0 = max($0, now) }
                me.current?.request(.max(1))  // re-entrant: must only add demand
                depth.withLock { $0 -= 1 }
                return .none
            })
        me.withLock { $0 = subscriber }
        (1...100).publisher.subscribe(subscriber)
        me.withLock { $0 = nil }
        #expect(subscriber.values == Array(1...100))
        #expect(subscriber.completion == .finished)
        #expect(deepest.current == 1)
        #expect(subscriber.violations.isEmpty)
    }

    @Test func cancelFromReceiveStopsDeliveryAndReleasesTheSubscriber() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        do {
            let me = LockedValue<TestSubscriber<Int, Never>?>(nil)
            let subscriber = TestSubscriber<Int, Never>(onValue: { value in
                if value == 3 { me.current?.cancel() }
                return .none
            })
            me.withLock { $0 = subscriber }
            weakSubscriber = subscriber
            (1...1_000).publisher.subscribe(subscriber)
            me.withLock { $0 = nil }
            #expect(subscriber.values == [1, 2, 3])
            #expect(subscriber.completion == nil)
            subscriber.request(.max(5))
            #expect(subscriber.values == [1, 2, 3])
            #expect(subscriber.violations.isEmpty)
        }
        #expect(weakSubscriber == nil)
    }

    // Under unlimited demand the sequence is emitted without a lock per element, and a
    // `sink`'s closure is called directly: a sink that cancels itself from its closure must
    // still receive nothing more, no completion, and be released.
    @Test func aSinkCancellingItselfFromItsClosureGetsNothingMore() {
        final class Box: @unchecked Sendable {
            var sink: Subscribers.Sink<Int, Never>?
            var received: [Int] = []
            var completed = false
        }
        let box = Box()
        weak var weakSink: Subscribers.Sink<Int, Never>?
        do {
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in box.completed = true },
                receiveValue: { value in
                    box.received.append(value)
                    if value == 3 { box.sink?.cancel() }
                })
            box.sink = sink
            weakSink = sink
            (1...1_000).publisher.subscribe(sink)
            box.sink = nil
        }
        #expect(box.received == [1, 2, 3])
        #expect(!box.completed)
        #expect(weakSink == nil)
    }

    @Test func aSinkCancelledFromAnotherThreadStopsTheSequence() async {
        await offThePool {
            final class Count: @unchecked Sendable {
                let lock = NSLock()
                var values = 0
                var completed = false
            }
            let count = Count()
            let started = DispatchSemaphore(value: 0)
            let cancelled = DispatchSemaphore(value: 0)
            let sink = Subscribers.Sink<Int, Never>(
                receiveCompletion: { _ in count.lock.withLock { count.completed = true } },
                receiveValue: { value in
                    count.lock.withLock { count.values += 1 }
                    if value == 1 {
                        started.signal()
                        cancelled.wait()
                    }
                })
            let cancellable = AnyCancellable(sink)
            DispatchQueue.global().async {
                started.wait()
                cancellable.cancel()
                cancelled.signal()
            }
            (1...1_000_000).publisher.subscribe(sink)
            // The cancel happened while value 1 was being delivered: nothing after it.
            #expect(count.lock.withLock { count.values } == 1)
            #expect(!count.lock.withLock { count.completed })
        }
    }

    @Test func eachSubscriberIteratesTheSequenceAfresh() {
        let publisher = (1...3).publisher
        let first = TestSubscriber<Int, Never>(initialDemand: .max(2))
        let second = TestSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        #expect(first.values == [1, 2])
        #expect(second.values == [1, 2, 3])
        first.request(.max(1))
        #expect(first.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }
}
