// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation
import Synchronization
import Testing

/// The shapes that once made ThreadSanitizer report races inside the library, run with threads
/// started from one barrier: subscribers joining and leaving a subject (directly, through
/// `share`, through `multicast`) while another thread sends, and `values` iterators cancelled
/// while they await and another thread sends. Under `swift test --sanitize=thread` (CI runs the
/// suite that way, halting on the first report) any report fails the run; without the sanitizer
/// they check values and completion.
@Suite("Sanitizer stress: join, leave and cancel while sending")
struct SanitizerStressTests {
    /// How many times each shape runs: enough to reproduce the reports before their fixes in a
    /// run under ThreadSanitizer.
    static let rounds = Int(ProcessInfo.processInfo.environment["SANITIZER_STRESS_ROUNDS"] ?? "") ?? 4

    @Test("subject: subscribers join and leave while another thread sends")
    func subjectChurnWhileSending() async {
        await offThePool {
            for _ in 0..<Self.rounds {
                let subject = PassthroughSubject<Int, Never>()
                let received = Atomic<Int>(0)
                let steady = subject.sink { _ in received.add(1, ordering: .relaxed) }
                let stop = Atomic<Bool>(false)
                runOverlapping(threads: 2) { thread in
                    if thread == 0 {
                        sendUntil(stop, into: subject)
                    } else {
                        var kept: [AnyCancellable] = []
                        for index in 0..<2_000 {
                            let cancellable = subject.sink { _ in }
                            // Cancel every other one at once, and the oldest kept one now and then,
                            // so that removals hit both the end and the middle of the list.
                            if index.isMultiple(of: 2) { cancellable.cancel() } else { kept.append(cancellable) }
                            if kept.count > 8 { kept.removeFirst().cancel() }
                        }
                        for cancellable in kept { cancellable.cancel() }
                        stop.store(true, ordering: .releasing)
                    }
                }
                // The churn may end before the sender's first burst on a loaded machine, so the
                // count alone says little; a send after the churn must still reach the steady sink.
                let before = received.load(ordering: .relaxed)
                subject.send(-1)
                #expect(received.load(ordering: .relaxed) == before + 1)
                #expect(before > 0)
                steady.cancel()
            }
        }
    }

    @Test("share: subscribers join and leave while the upstream sends")
    func shareJoinLeaveWhileSending() async {
        await offThePool {
            for _ in 0..<Self.rounds {
                let subject = PassthroughSubject<Int, Never>()
                let shared = subject.share()
                let stop = Atomic<Bool>(false)
                let finished = Atomic<Int>(0)
                let steady = shared.sink(
                    receiveCompletion: { _ in finished.add(1, ordering: .relaxed) }, receiveValue: { _ in })
                runOverlapping(threads: 2) { thread in
                    if thread == 0 {
                        sendUntil(stop, into: subject)
                        subject.send(completion: .finished)
                    } else {
                        for _ in 0..<1_000 {
                            let first = shared.sink { _ in }
                            let second = shared.sink { _ in }
                            first.cancel()
                            second.cancel()
                        }
                        stop.store(true, ordering: .releasing)
                    }
                }
                #expect(finished.load(ordering: .relaxed) == 1)
                steady.cancel()
            }
        }
    }

    @Test("multicast: connect and cancel race the sends")
    func multicastConnectCancelWhileSending() async {
        await offThePool {
            for _ in 0..<Self.rounds {
                let subject = PassthroughSubject<Int, Never>()
                let stop = Atomic<Bool>(false)
                runOverlapping(threads: 2) { thread in
                    if thread == 0 {
                        sendUntil(stop, into: subject)
                    } else {
                        for _ in 0..<1_000 {
                            let multicast = subject.multicast { PassthroughSubject<Int, Never>() }
                            let subscriber = multicast.sink { _ in }
                            let connection = multicast.connect()
                            connection.cancel()
                            subscriber.cancel()
                        }
                        stop.store(true, ordering: .releasing)
                    }
                }
            }
        }
    }

    @Test("values: iterators cancelled while awaiting, as another thread sends")
    func valuesCancelledWhileAwaiting() async {
        for _ in 0..<Self.rounds {
            let subject = PassthroughSubject<Int, Never>()
            let box = SubjectBox(subject: subject)
            let stop = Atomic<Bool>(false)
            let sender = Thread {
                sendUntil(stop, into: box.subject)
            }
            sender.start()
            var received = 0
            for round in 0..<300 {
                let iterating = Task {
                    var count = 0
                    for await _ in box.subject.values {
                        count += 1
                        if count == 3 { break }
                    }
                    return count
                }
                if round.isMultiple(of: 2) { iterating.cancel() }
                received += await iterating.value
            }
            stop.store(true, ordering: .releasing)
            #expect(received > 0)
        }
    }

    @Test("values: one iterator awaits element after element while another thread sends")
    func valuesAwaitWhileSending() async {
        let subject = PassthroughSubject<Int, Never>()
        let box = SubjectBox(subject: subject)
        let stop = Atomic<Bool>(false)
        let iterating = Task {
            var count = 0
            for await _ in box.subject.values {
                count += 1
                if count == 20_000 { break }
            }
            return count
        }
        let sender = Thread {
            sendUntil(stop, into: box.subject)
        }
        sender.start()
        #expect(await iterating.value == 20_000)
        stop.store(true, ordering: .releasing)
    }
}

/// Two subscribers of one subject that each send into it from their own `receive(_:)` while
/// two other threads flood it: each subscriber's delivering thread offers its value to the
/// other subscriber, whose backlog may be full. Waiting for room there would wait for a thread
/// that is itself waiting for room in this one's backlog; a sender that is the delivering
/// thread of another subscriber of the same subject queues beyond the limit instead. (This
/// hung before, once both backlogs were full.)
@Suite("Subject: subscribers sending into their own subject under a flood")
struct SubscribersSendingIntoTheirSubjectTests {
    @Test("two subscribers echo into the subject while 2 threads send 20,000 values each")
    func echoingSubscribersDoNotDeadlock() async {
        await offThePool {
            let subject = PassthroughSubject<Int, Never>()
            let box = SubjectBox(subject: subject)
            let echoes = Atomic<Int>(0)
            let received = Atomic<Int>(0)
            let subscriptions = (0..<2).map { _ in
                subject.sink { value in
                    received.add(1, ordering: .relaxed)
                    guard value >= 0 else { return }
                    // Take a little time, so that the flood fills the backlogs, then echo.
                    for _ in 0..<200 { combineTestSpin() }
                    echoes.add(1, ordering: .relaxed)
                    box.subject.send(-1)
                }
            }
            let finished = DispatchGroup()
            for sender in 0..<2 {
                finished.enter()
                Thread {
                    for value in 0..<20_000 { box.subject.send(sender * 20_000 + value) }
                    finished.leave()
                }.start()
            }
            let outcome = finished.wait(timeout: .now() + 120)
            #expect(outcome == .success, "the senders were still blocked after 2 minutes: a deadlock")
            guard outcome == .success else { return }
            // Each flood value reaches both subscribers, and each of those deliveries echoes once.
            #expect(echoes.load(ordering: .relaxed) == 2 * 2 * 20_000)
            for subscription in subscriptions { subscription.cancel() }
        }
    }
}

/// A short busy pause that the optimiser keeps.
@inline(never)
private func combineTestSpin() {
    spinSink.add(1, ordering: .relaxed)
}

private let spinSink = Atomic<Int>(0)

/// Sends 0, 1, 2, … into `subject` in bursts of 32 with a short sleep between them: one burst,
/// then more until `stop` is set. The bursts overlap whatever the other threads do; the sleeps
/// bound the sender's share of the two cores. (A sender that never paused kept a core busy for
/// as long as its test waited, and the `values` tests wait for the cooperative pool, which the
/// rest of the suite holds: two such senders took both cores until the suite ended, and a CI run
/// stalled for 38 minutes while they ran.)
private func sendUntil(_ stop: borrowing Atomic<Bool>, into subject: PassthroughSubject<Int, Never>) {
    var value = 0
    repeat {
        for _ in 0..<32 {
            subject.send(value)
            value += 1
        }
        usleep(10)
    } while !stop.load(ordering: .acquiring)
}

/// A subject handed to a task or thread; the subject is safe to use from any thread.
private struct SubjectBox: @unchecked Sendable {
    let subject: PassthroughSubject<Int, Never>
}
