// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Foundation
import Testing

/// The team's scenarios document (docs/SCENARIOS.md), as tests: each builds the program the way
/// an Apple developer writes it and checks what it does.
@Suite("Scenarios")
struct ScenarioTests {
    final class Wizard {
        var grade = 0
    }

    @Test func wizardGraduationWithNotificationCenter() {
        // §1 as written for Apple's platforms: the graduated notification of merlin.
        let merlin = Wizard()
        let center = NotificationCenter()
        let graduated = Notification.Name("graduated")
        var grades: [Int] = []
        let cancellable = center.publisher(for: graduated, object: merlin)
            .compactMap { $0.userInfo?["NewGrade"] as? Int }
            .filter { $0 >= 5 }
            .prefix(3)
            .handleEvents(receiveOutput: { grades.append($0) })
            .assign(to: \.grade, on: merlin)
        for grade: Any in [4, "x", 5, 6, 7, 8] {
            center.post(name: graduated, object: merlin, userInfo: ["NewGrade": grade])
        }
        center.post(name: graduated, object: Wizard(), userInfo: ["NewGrade": 9])  // not merlin
        #expect(grades == [5, 6, 7])
        #expect(merlin.grade == 7)
        cancellable.cancel()
    }

    @Test func wizardGraduationWithOperatorsAndWithExplicitTypes() {
        // §1, with a subject standing in for NotificationCenter.
        let merlin = Wizard()
        let graduated = PassthroughSubject<[String: Any], Never>()
        var grades: [Int] = []
        let cancellable =
            graduated
            .compactMap { $0["NewGrade"] as? Int }
            .filter { $0 >= 5 }
            .prefix(3)
            .handleEvents(receiveOutput: { grades.append($0) })
            .assign(to: \.grade, on: merlin)
        for userInfo: [String: Any] in [
            ["NewGrade": 4], ["NewGrade": "x"], ["NewGrade": 5], ["NewGrade": 6], ["NewGrade": 7], ["NewGrade": 8],
        ] {
            graduated.send(userInfo)
        }
        #expect(grades == [5, 6, 7])
        #expect(merlin.grade == 7)
        cancellable.cancel()

        let notifications = PassthroughSubject<[String: Any], Never>()
        let publisher = Publishers.Map(upstream: notifications) { $0["NewGrade"] as? Int ?? 0 }
        let subscriber = Subscribers.Assign(object: merlin, keyPath: \.grade)
        publisher.subscribe(subscriber)
        notifications.send(["NewGrade": 9])
        #expect(merlin.grade == 9)
    }

    @Test func zip3OfThreeAsynchronousJobsEnablesContinueOnceAllAreDone() async {
        await offThePool {
            // §4.
            func job(_ value: Int, after milliseconds: Int) -> Future<Int, Never> {
                Future { promise in
                    nonisolated(unsafe) let promise = promise  // not Sendable, as Apple's
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
                        promise(.success(value))
                    }
                }
            }
            let done = DispatchSemaphore(value: 0)
            let subscriber = TestSubscriber<(Int, Int, Int), Never>(onCompletion: { _ in done.signal() })
            Publishers.Zip3(job(1, after: 20), job(2, after: 5), job(3, after: 10)).subscribe(subscriber)
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(subscriber.values.map { [$0.0, $0.1, $0.2] } == [[1, 2, 3]])
            #expect(subscriber.violations.isEmpty)
        }
    }

    @Test func futureIsEagerAndDeferredRunsPerSubscriber() {
        // §6.
        var runs: [String] = []
        let eager = Future<Int, Never> { promise in
            runs.append("eager")
            promise(.success(1))
        }
        let lazy = Deferred {
            Future<Int, Never> { promise in
                runs.append("lazy")
                promise(.success(2))
            }
        }
        #expect(runs == ["eager"])
        _ = eager.sink { _ in }
        _ = lazy.sink { _ in }
        _ = lazy.sink { _ in }
        #expect(runs == ["eager", "lazy", "lazy"])
    }

    @Test func queryBehindASubjectStartsOnSubscriptionAndStopsOnCancel() {
        // §6: a long-running callback query wrapped in handleEvents, after authorisation.
        var log: [String] = []
        let samples = PassthroughSubject<[Double], any Error>()
        let heartRate = samples.handleEvents(
            receiveSubscription: { _ in log.append("start") },
            receiveCancel: { log.append("stop") }
        ).eraseToAnyPublisher()
        var received: [[Double]] = []
        let cancellable = Just(true).setFailureType(to: (any Error).self)
            .flatMap { authorized in authorized ? heartRate : Empty().eraseToAnyPublisher() }
            .sink(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        samples.send([60, 61])
        cancellable.cancel()
        samples.send([99])
        #expect(received == [[60, 61]])
        #expect(log == ["start", "stop"])
    }

    @Test func customSubscriberAsksForThreeThenOneMore() {
        // §7: requesting .max(3) and returning .max(1) on the third value delivers 1…4.
        final class Subscriber: Combine.Subscriber {
            typealias Input = Int
            typealias Failure = Never
            var received: [Int] = []
            func receive(subscription: Subscription) { subscription.request(.max(3)) }
            func receive(_ input: Int) -> Subscribers.Demand {
                received.append(input)
                return received.count == 3 ? .max(1) : .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = Subscriber()
        subject.subscribe(subscriber)
        for value in 1...5 { subject.send(value) }
        #expect(subscriber.received == [1, 2, 3, 4])
    }

    @Test func customPublisherAndSubscriptionWithQualifiedNames() {
        // §7: `Combine.Publisher` and `Combine.Subscription` in the user's own types.
        struct Ticks: Combine.Publisher {
            typealias Output = Int
            typealias Failure = Never

            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscription(subscriber: subscriber))
            }

            final class Subscription<S: Subscriber>: Combine.Subscription where S.Input == Int {
                let combineIdentifier = CombineIdentifier()
                var subscriber: S?
                var tick = 0

                init(subscriber: S) {
                    self.subscriber = subscriber
                }

                func request(_ demand: Subscribers.Demand) {
                    var remaining = demand
                    while remaining > 0, let subscriber {
                        tick += 1
                        remaining -= 1
                        remaining += subscriber.receive(tick)
                    }
                }

                func cancel() {
                    subscriber = nil
                }
            }
        }
        var ticks: [Int] = []
        let cancellable = Ticks().prefix(4).sink { ticks.append($0) }
        #expect(ticks == [1, 2, 3, 4])
        cancellable.cancel()
    }
}
