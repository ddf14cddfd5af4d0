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
}
