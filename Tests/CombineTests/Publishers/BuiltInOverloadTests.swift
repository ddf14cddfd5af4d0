// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

/// Collects what a publisher that never fails publishes synchronously.
private func values<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
    var result: [P.Output] = []
    _ = publisher.sink { result.append($0) }
    return result
}

/// Collects values and the completion of a publisher that may fail.
private func events<P: Publisher>(_ publisher: P) -> (values: [P.Output], failure: P.Failure?) {
    var result: [P.Output] = []
    var failure: P.Failure?
    _ = publisher.sink(
        receiveCompletion: { if case .failure(let error) = $0 { failure = error } },
        receiveValue: { result.append($0) })
    return (result, failure)
}

@Suite("Just's own operators")
struct JustOverloadTests {
    @Test func returnTypesAreApples() {
        let mapped: Just<String> = Just(1).map { "\($0)" }
        let filtered: Optional<Int>.Publisher = Just(1).filter { $0 > 5 }
        let tried: Result<Int, any Error>.Publisher = Just(1).tryMap { $0 + 1 }
        let typed: Result<Int, Failure>.Publisher = Just(1).setFailureType(to: Failure.self)
        let reduced: Result<Int, Never>.Publisher = Just(2).reduce(10, +)
        let appended: Publishers.Sequence<[Int], Never> = Just(1).append(2, 3)
        let ignored: Empty<Int, Never> = Just(1).ignoreOutput()
        #expect(values(mapped) == ["1"])
        #expect(values(filtered).isEmpty)
        #expect(events(tried).values == [2])
        #expect(events(typed).values == [1])
        #expect(values(reduced) == [12])
        #expect(values(appended) == [1, 2, 3])
        #expect(values(ignored).isEmpty)
    }

    @Test func eachOverloadComputesTheRightValue() {
        #expect(values(Just(3).contains(3)) == [true])
        #expect(values(Just(3).allSatisfy { $0 > 5 }) == [false])
        #expect(values(Just(3).collect()) == [[3]])
        #expect(values(Just("7").compactMap { Int($0) }) == [7])
        #expect(values(Just(3).count()) == [1])
        #expect(values(Just(3).dropFirst()).isEmpty)
        #expect(values(Just(3).dropFirst(0)) == [3])
        #expect(values(Just(3).prefix(0)).isEmpty)
        #expect(values(Just(3).output(at: 0)) == [3])
        #expect(values(Just(3).output(in: 1...2)).isEmpty)
        #expect(values(Just(3).prepend([1, 2])) == [1, 2, 3])
        #expect(values(Just(3).scan(1, +)) == [4])
        #expect(values(Just(3).first(where: { $0 == 3 })) == [3])
        #expect(values(Just(3).min()) == [3])
        #expect(values(Just(3).replaceEmpty(with: 0)) == [3])
        let failed = events(Just(3).tryReduce(0) { _, _ in throw Failure(code: 1) })
        #expect(failed.values.isEmpty)
        #expect(failed.failure as? Failure == Failure(code: 1))
    }
}

@Suite("Optional.Publisher's own operators")
struct OptionalOverloadTests {
    @Test func withAndWithoutAValue() {
        let some = Optional(4).publisher
        let none = Optional<Int>.none.publisher
        let mapped: Optional<String>.Publisher = some.map { "\($0)" }
        #expect(values(mapped) == ["4"])
        #expect(values(none.map { $0 * 2 }).isEmpty)
        #expect(values(some.count()) == [1])
        // Without a value, Apple's count, allSatisfy, contains and reduce only finish (where
        // the general operators would publish 0, true, false and the initial result): code
        // tested on Apple's platforms sees that, so ours does the same (recorded by the
        // Apple-verified conformance suite). collect still publishes an empty array.
        #expect(values(none.count()).isEmpty)
        #expect(values(none.collect()) == [[]])
        #expect(values(none.allSatisfy { _ in false }).isEmpty)
        #expect(values(none.contains(4)).isEmpty)
        #expect(values(some.contains(4)) == [true])
        #expect(values(none.reduce(7, +)).isEmpty)
        #expect(values(none.scan(7, +)).isEmpty)
        let replaced: Just<Int> = none.replaceEmpty(with: 9)
        #expect(values(replaced) == [9])
        #expect(values(some.filter { $0 > 5 }).isEmpty)
        #expect(values(some.drop(while: { $0 < 5 })).isEmpty)
    }
}

@Suite("Result.Publisher's own operators")
struct ResultOverloadTests {
    @Test func successAndFailure() {
        let success = Result<Int, Failure>.success(2).publisher
        let failure = Result<Int, Failure>.failure(Failure(code: 1)).publisher
        let mapped: Result<Int, Failure>.Publisher = success.map { $0 * 10 }
        #expect(events(mapped).values == [20])
        #expect(events(failure.map { $0 * 10 }).failure == Failure(code: 1))
        let replaced: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
        #expect(values(replaced) == [0])
        #expect(events(success.count()).values == [1])
        #expect(events(success.tryMap { _ -> Int in throw Failure(code: 5) }).failure as? Failure == Failure(code: 5))
        #expect(events(failure.tryMap { $0 }).failure as? Failure == Failure(code: 1))
        #expect(events(success.mapError { _ in Failure(code: 9) }).values == [2])
        let typed: Result<Int, Failure>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(
            to: Failure.self)
        #expect(events(typed).values == [1])
        #expect(events(success.contains(2)).values == [true])
        #expect(events(success.reduce(1, +)).values == [3])
    }
}

@Suite("Publishers.Sequence's own operators")
struct SequenceOverloadTests {
    @Test func operatorsApplyToTheSequenceAtOnce() {
        var calls = 0
        let mapped: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { value -> Int in
            calls += 1
            return value * 2
        }
        #expect(calls == 3)  // before any subscription, as Combine does
        #expect(values(mapped) == [2, 4, 6])
    }

    @Test func returnTypesAndValues() {
        let numbers = [3, 1, 1, 2].publisher
        let counted: Just<Int> = numbers.count()
        let first: Optional<Int>.Publisher = numbers.first()
        let last: Optional<Int>.Publisher = numbers.last()
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst()
        let prefixed: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(2)
        let collected: Result<[Int], Never>.Publisher = numbers.collect()
        #expect(values(counted) == [4])
        #expect(values(first) == [3])
        #expect(values(last) == [2])
        #expect(values(dropped) == [1, 1, 2])
        #expect(values(prefixed) == [3, 1])
        #expect(values(collected) == [[3, 1, 1, 2]])
        #expect(values(numbers.removeDuplicates()) == [3, 1, 2])
        #expect(values(numbers.min()) == [1])
        #expect(values(numbers.max()) == [3])
        #expect(values(numbers.scan(0, +)) == [3, 4, 5, 7])
        #expect(values(numbers.reduce(0, +)) == [7])
        #expect(values(numbers.output(at: 2)) == [1])
        #expect(values(numbers.output(at: 9)).isEmpty)
        #expect(values(numbers.output(in: 1..<3)) == [1, 1])
        #expect(values(numbers.append(9)) == [3, 1, 1, 2, 9])
        #expect(values(numbers.prepend([0].publisher)) == [0, 3, 1, 1, 2])
        #expect(values([1, nil, 3].publisher.replaceNil(with: 0)) == [1, 0, 3])
        #expect(values(numbers.contains(2)) == [true])
        #expect(values(numbers.allSatisfy { $0 > 0 }) == [true])
        #expect(values(numbers.first(where: { $0 < 3 })) == [1])
        #expect(values(numbers.last(where: { $0 < 3 })) == [2])
    }

    @Test func failingSequencesKeepTheirFailureType() {
        let failing = [1, 2].publisher.setFailureType(to: Failure.self)
        let typed: Publishers.Sequence<[Int], Failure> = failing
        let counted: Result<Int, Failure>.Publisher = typed.count()
        #expect(events(counted).values == [2])
        #expect(events(typed.tryAllSatisfy { _ in throw Failure(code: 3) }).failure as? Failure == Failure(code: 3))
    }
}

@Suite("Declarations that must accept what Apple's accept")
struct ApiShapeTests {
    /// Apple's `Publishers.Sequence.drop(while:)` takes a non-escaping predicate (the sequence
    /// is dropped from eagerly), so a closure parameter can be passed straight on.
    private func dropLeading(_ numbers: [Int], while predicate: (Int) -> Bool) -> [Int] {
        values(numbers.publisher.drop(while: predicate))
    }

    @Test func sequenceDropWhileTakesANonEscapingPredicate() {
        #expect(dropLeading([1, 2, 5, 1], while: { $0 < 3 }) == [5, 1])
    }

    @Test func recordingEncodesIntoAnEncoderAsApplesDoes() throws {
        let recording = Record<Int, Never>(output: [1, 2], completion: .finished).recording
        let encoder = KeyCountingEncoder()
        try recording.encode(into: encoder)
        #expect(encoder.keys.sorted() == ["completion", "output"])
    }

    @Test func anyPublisherDescribesItselfInPlaygrounds() {
        #expect(Just(1).eraseToAnyPublisher().playgroundDescription as? String == "AnyPublisher")
    }
}

/// An encoder that records the top-level keys encoded into it and ignores their values.
private final class KeyCountingEncoder: Encoder {
    var keys: [String] = []
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(owner: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { fatalError("not used") }
    func singleValueContainer() -> any SingleValueEncodingContainer { fatalError("not used") }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let owner: KeyCountingEncoder
        var codingPath: [any CodingKey] = []
        mutating func encodeNil(forKey key: Key) throws { owner.keys.append(key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { owner.keys.append(key.stringValue) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        { fatalError("not used") }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { fatalError("not used") }
        mutating func superEncoder() -> any Encoder { owner }
        mutating func superEncoder(forKey key: Key) -> any Encoder { owner }
    }
}

@Suite("Apple's quirks in the built-in publishers' own operators and subscriptions")
struct BuiltInQuirkTests {
    /// Apple's `Just.output(in:)` looks only at where the range starts: an empty range from
    /// 0 still publishes the value.
    @Test func justOutputInLooksAtTheStartOnly() {
        #expect(values(Just(12).output(in: 0..<0)) == [12])
        #expect(values(Just(12).output(in: 1..<10)).isEmpty)
        #expect(values(Just(12).output(in: -10..<10)).isEmpty)
    }

    /// Apple's `Optional.Publisher.output(in:)` traps on a range that starts below zero.
    @Test func optionalOutputInTrapsBelowZero() async {
        await runningExitTest {
            await #expect(processExitsWith: .failure) {
                _ = Optional(12).publisher.output(in: (-1)...4)
            }
        }
    }

    /// Apple's `try` comparisons of one value call the closure with the value twice, so a
    /// throwing closure fails them.
    @Test func oneValueTryComparisonsCallTheClosure() {
        let calls = LockedValue(0)
        let thrown = events(
            Result<Int, Failure>.success(3).publisher.tryMin { _, _ in
                calls.withLock { $0 += 1 }
                throw Failure(code: 9)
            })
        #expect(thrown.failure as? Failure == Failure(code: 9))
        #expect(calls.current == 1)
        let justThrown = events(Just(3).tryRemoveDuplicates { _, _ in throw Failure(code: 8) })
        #expect(justThrown.failure as? Failure == Failure(code: 8))
    }

    /// Sequence and Record subscriptions describe themselves by their elements while they
    /// run, then as "Sequence" and "Cancelled Events"; their mirrors show the sequence.
    @Test func sequenceSubscriptionsDescribeTheirElements() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(subscriber)
        #expect(subscriber.subscription.map { "\($0)" } == "[1, 2]")
        let mirror = subscriber.subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["sequence", "completion"])
        subscriber.cancel()
        #expect(subscriber.subscription.map { "\($0)" } == "Cancelled Events")

        let other = TestSubscriber<Int, Never>(initialDemand: .none)
        [1, 2].publisher.subscribe(other)
        #expect(other.subscription.map { "\($0)" } == "[1, 2]")
        other.cancel()
        #expect(other.subscription.map { "\($0)" } == "Sequence")
    }
}
