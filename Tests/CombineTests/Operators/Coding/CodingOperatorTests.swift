// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation
import Testing

private struct Failure: Error, Equatable, CustomStringConvertible {
    let code: Int
    var description: String { "Failure(\(code))" }
}

private struct Trick: Codable, Equatable {
    let name: String
}

private struct NameCoder: TopLevelEncoder, TopLevelDecoder {
    struct Unsupported: Error {}

    func encode<T: Encodable>(_ value: T) throws -> String {
        guard let trick = value as? Trick else { throw Unsupported() }
        return trick.name
    }

    func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
        guard !input.isEmpty, let trick = Trick(name: input) as? T else { throw Unsupported() }
        return trick
    }
}

@Suite("encode, decode, assertNoFailure")
struct CodingOperatorTests {
    @Test func encodeAndDecodeWithOurOwnCoder() {
        var names: [String] = []
        _ = [Trick(name: "lumos")].publisher.encode(encoder: NameCoder()).sink(
            receiveCompletion: { _ in }, receiveValue: { names.append($0) })
        var tricks: [Trick] = []
        _ = ["nox"].publisher.decode(type: Trick.self, decoder: NameCoder()).sink(
            receiveCompletion: { _ in }, receiveValue: { tricks.append($0) })
        #expect(names == ["lumos"])
        #expect(tricks == [Trick(name: "nox")])
    }

    @Test func decodeFailureCancelsUpstream() {
        let upstream = TestPublisher<String, Never>()
        let subscriber = TestSubscriber<Trick, any Error>()
        upstream.decode(type: Trick.self, decoder: NameCoder()).subscribe(subscriber)
        upstream.send("")
        #expect(upstream.cancelCount == 1)
        guard case .failure(let error) = subscriber.completion else {
            Issue.record("expected a failure")
            return
        }
        #expect(error is NameCoder.Unsupported)
    }

    @Test func jsonCodersRoundTrip() throws {
        var decoded: [Trick] = []
        _ = Just(Trick(name: "expelliarmus"))
            .encode(encoder: JSONEncoder())
            .decode(type: Trick.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { decoded.append($0) })
        #expect(decoded == [Trick(name: "expelliarmus")])
    }

    @Test func assertNoFailurePassesValuesThrough() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: Failure.self).assertNoFailure().subscribe(subscriber)
        #expect(subscriber.values == [1, 2])
    }

    @Test func assertNoFailureTrapsWithThePrefixAndTheError() async {
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Fail<Int, Failure>(error: Failure(code: 42)).assertNoFailure("decoding").sink { _ in }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("decoding: assertNoFailure: unexpected failure: Failure(42)"))
    }
}
