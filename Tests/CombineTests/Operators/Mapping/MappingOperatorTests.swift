// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

private struct Wrapped: Error, Equatable {
    let inner: Failure
}

private struct Point {
    let x: Int
    let y: Int
    let label: String
}

private func failure<Output>(of subscriber: TestSubscriber<Output, any Error>) -> Failure? {
    guard case .failure(let error) = subscriber.completion else { return nil }
    return error as? Failure
}

@Suite("mapError, setFailureType, replaceNil, map(keyPath)")
struct MappingOperatorTests {
    @Test func mapErrorConvertsTheFailureOnly() {
        let upstream = TestPublisher<Int, Failure>()
        let subscriber = TestSubscriber<Int, Wrapped>()
        upstream.mapError { Wrapped(inner: $0) }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 3)))
        #expect(
            subscriber.events == [.subscription, .value(1), .completion(.failure(Wrapped(inner: Failure(code: 3))))])
    }

    @Test func setFailureTypeChangesOnlyTheType() {
        let publisher: Publishers.SetFailureType<Just<Int>, Failure> = Just(5).setFailureType(to: Failure.self)
        let subscriber = TestSubscriber<Int, Failure>()
        publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(publisher == Just(5).setFailureType(to: Failure.self))
    }

    @Test func replaceNilSubstitutesTheDefault() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, nil, 3].publisher.replaceNil(with: 0).subscribe(subscriber)
        #expect(subscriber.values == [1, 0, 3])
    }

    @Test func keyPathMapsOneTwoAndThreeProperties() {
        let points = [Point(x: 1, y: 2, label: "a"), Point(x: 3, y: 4, label: "b")]
        let one = TestSubscriber<String, Never>()
        points.publisher.map(\.label).subscribe(one)
        #expect(one.values == ["a", "b"])

        var pairs: [String] = []
        _ = points.publisher.map(\.x, \.y).sink { pairs.append("\($0),\($1)") }
        #expect(pairs == ["1,2", "3,4"])

        var triples: [String] = []
        _ = points.publisher.map(\.x, \.y, \.label).sink { triples.append("\($0)\($1)\($2)") }
        #expect(triples == ["12a", "34b"])
    }

    /// As Apple's: map with one key path describes its subscriber as `ValueForKey`, with two or
    /// three as `ValueForKeys`, and reflects the key paths as `keyPath`, or `keyPath0`…
    @Test func keyPathMapsReflectAsApplesDo() throws {
        let upstream = HeldSubscriberPublisher<Point, Never>()
        upstream.map(\.x).subscribe(TestSubscriber<Int, Never>())
        let one = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect("\(one)" == "ValueForKey")
        #expect((one as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "ValueForKey")
        #expect(one.customMirror.children.map(\.label) == ["keyPath"])
        #expect(one.customMirror.children.first?.value as? KeyPath<Point, Int> == \Point.x)

        upstream.map(\.x, \.y).subscribe(TestSubscriber<(Int, Int), Never>())
        let two = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect("\(two)" == "ValueForKeys")
        #expect(two.customMirror.children.map(\.label) == ["keyPath0", "keyPath1"])

        upstream.map(\.x, \.y, \.label).subscribe(TestSubscriber<(Int, Int, String), Never>())
        let three = try #require(upstream.subscriber.flatMap { $0 as? any CustomReflectable })
        #expect("\(three)" == "ValueForKeys")
        #expect(three.customMirror.children.map(\.label) == ["keyPath0", "keyPath1", "keyPath2"])
        #expect(three.customMirror.children.map(\.value).last as? KeyPath<Point, String> == \Point.label)
    }
}
