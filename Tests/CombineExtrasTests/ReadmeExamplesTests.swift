// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineExtras
import CombineTesting
import Testing

// The one-line examples of README.md's CombineExtras table, run: if an example stops
// compiling or stops doing what the table says, this fails.

@Suite("README: the CombineExtras examples")
struct ReadmeExamplesTests {
    struct MyError: Error, Equatable {}

    final class Label {
        var text = ""
    }

    @Test func createAmbWithLatestFrom() {
        var cleaned = false
        let created = AnyPublisher<String, MyError>.create { s in
            s.send("a")
            s.send(completion: .finished)
            return AnyCancellable { cleaned = true }
        }
        let createdOut = TestSubscriber<String, MyError>()
        created.subscribe(createdOut)
        #expect(createdOut.values == ["a"])
        #expect(createdOut.completion == .finished)
        #expect(cleaned)

        let primary = PassthroughSubject<Int, Never>()
        let mirror = PassthroughSubject<Int, Never>()
        let amb = TestSubscriber<Int, Never>()
        primary.amb(mirror).subscribe(amb)
        mirror.send(2)
        primary.send(1)
        #expect(amb.values == [2])
        let many = TestSubscriber<Int, Never>()
        [Just(1), Just(2)].amb().subscribe(many)
        #expect(many.values == [1])

        let taps = PassthroughSubject<Void, Never>()
        let text = PassthroughSubject<String, Never>()
        let (a, b) = (PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>())
        let latest = TestSubscriber<String, Never>()
        let combined = TestSubscriber<String, Never>()
        taps.withLatestFrom(text).subscribe(latest)
        taps.withLatestFrom(a, b) { _, latest in "\(latest.0 + latest.1)" }.subscribe(combined)
        text.send("hello")
        a.send(1)
        b.send(2)
        taps.send(())
        #expect(latest.values == ["hello"])
        #expect(combined.values == ["3"])
    }

    @Test func mappingAndFlattening() {
        let query = PassthroughSubject<Int, Never>()
        let searches = TestSubscriber<Int, Never>()
        query.flatMapLatest { Just($0 * 10) }.subscribe(searches)
        query.send(1)
        #expect(searches.values == [10])

        let loads = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.concatMap { Just($0) }.subscribe(loads)
        #expect(loads.values == [1, 2, 3])

        struct User { let name: String }
        let names = TestSubscriber<[String], Never>()
        Just([User(name: "a"), User(name: "b")]).mapMany(\.name).subscribe(names)
        #expect(names.values == [["a", "b"]])
        let positives = TestSubscriber<[Int], Never>()
        Just([-1, 2, 3]).filterMany { $0 > 0 }.subscribe(positives)
        #expect(positives.values == [[2, 3]])

        let results = TestSubscriber<Result<Int, MyError>, Never>()
        Fail<Int, MyError>(error: MyError()).mapToResult().subscribe(results)
        #expect(results.values.count == 1)
        #expect(results.completion == .finished)

        let events = TestSubscriber<Event<Int, Never>, Never>()
        Just(1).materialize().subscribe(events)
        #expect(events.values == [.value(1), .finished])

        let ignored = TestSubscriber<Int, Never>()
        Fail<Int, MyError>(error: MyError()).ignoreFailure().subscribe(ignored)
        #expect(ignored.completion == .finished)
    }

    @Test func retryWindowsPartitionToggleAndAssign() {
        let m = MarbleTest()
        var attempts = 0
        let fetch = Deferred { () -> AnyPublisher<Int, MyError> in
            attempts += 1
            return attempts < 3
                ? Fail(error: MyError()).eraseToAnyPublisher()
                : Just(7).setFailureType(to: MyError.self).eraseToAnyPublisher()
        }
        let retried = m.record(fetch.retry(3) { _ in Just(()).delay(for: 1, scheduler: m.scheduler) }, ticks: 5)
        #expect(retried.values == [7])
        #expect(attempts == 3)

        let pairs = TestSubscriber<[Int], Never>()
        [1, 2, 3].publisher.pairwise().map { [$0.0, $0.1] }.subscribe(pairs)
        #expect(pairs.values == [[1, 2], [2, 3]])
        let windows = TestSubscriber<[Int], Never>()
        [1, 2, 3, 4].publisher.nwise(3).subscribe(windows)
        #expect(windows.values == [[1, 2, 3], [2, 3, 4]])

        let numbers = PassthroughSubject<Int, Never>()
        let (evens, odds) = numbers.partition { $0 % 2 == 0 }
        let (evenValues, oddValues) = (TestSubscriber<Int, Never>(), TestSubscriber<Int, Never>())
        evens.subscribe(evenValues)
        odds.subscribe(oddValues)
        [1, 2, 3, 4].forEach(numbers.send)
        #expect(evenValues.values == [2, 4])
        #expect(oddValues.values == [1, 3])

        let toggled = TestSubscriber<Bool, Never>()
        Just(true).toggle().subscribe(toggled)
        #expect(toggled.values == [false])
        let typed = TestSubscriber<Int, MyError>()
        Empty<Never, MyError>().setOutputType(to: Int.self).subscribe(typed)
        #expect(typed.completion == .finished)
        let unique = TestSubscriber<Int, Never>()
        [1, 2, 1, 3].publisher.removeAllDuplicates().subscribe(unique)
        #expect(unique.values == [1, 2, 3])
        let constant = TestSubscriber<String, Never>()
        Just(1).mapToValue("done").subscribe(constant)
        #expect(constant.values == ["done"])
        let signal = TestSubscriber<Void, Never>()
        Just(1).mapToVoid().subscribe(signal)
        #expect(signal.values.count == 1)

        let label = Label()
        let values = PassthroughSubject<String, Never>()
        let assignment = values.assign(to: \.text, on: label, ownership: .weak)
        values.send("hi")
        #expect(label.text == "hi")
        assignment.cancel()
    }

    @Test func timeSharingRelaysAndCollections() {
        let m = MarbleTest()
        #expect(m.record(m.hot("-a-b--c-d").prefix(duration: 5, on: m.scheduler)).marble() == "-a-b-|")
        #expect(m.record(Publishers.interval(1, scheduler: m.scheduler), ticks: 4).values == [0, 1, 2])

        let readings = PassthroughSubject<Int, Never>()
        let shared = readings.share(replay: 2)
        let first = TestSubscriber<Int, Never>()
        shared.subscribe(first)
        [1, 2, 3].forEach(readings.send)
        let late = TestSubscriber<Int, Never>()
        shared.subscribe(late)
        #expect(late.values == [2, 3])

        let relay = CurrentValueRelay(0)
        let relayed = TestSubscriber<Int, Never>()
        relay.subscribe(relayed)
        relay.accept(1)
        #expect(relayed.values == [0, 1])
        #expect(relay.value == 1)

        let requests = [Just(1), Just(2)]
        let zipped = TestSubscriber<[Int], Never>()
        requests.zip().subscribe(zipped)
        #expect(zipped.values == [[1, 2]])
        let merged = TestSubscriber<Int, Never>()
        requests.merge().subscribe(merged)
        #expect(merged.values == [1, 2])
        let latest = TestSubscriber<[Int], Never>()
        requests.combineLatest().subscribe(latest)
        #expect(latest.values == [[1, 2]])
        let withOthers = TestSubscriber<[Int], Never>()
        Just(0).zip(with: requests).subscribe(withOthers)
        #expect(withOthers.values == [[0, 1, 2]])
    }
}
