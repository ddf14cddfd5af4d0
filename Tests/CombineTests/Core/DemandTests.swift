import Combine
import Foundation
import Testing

@Suite("Subscribers.Demand")
struct DemandTests {
    typealias Demand = Subscribers.Demand

    @Test func constructionAndMax() {
        #expect(Demand.none == .max(0))
        #expect(Demand.none.max == 0)
        #expect(Demand.max(7).max == 7)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(Int.max) != .unlimited)
    }

    @Test func descriptions() {
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(3).description == "max(3)")
        #expect(Demand.none.description == "max(0)")
    }

    @Test func addition() {
        #expect(Demand.max(2) + .max(3) == .max(5))
        #expect(Demand.unlimited + .max(1) == .unlimited)
        #expect(Demand.max(1) + .unlimited == .unlimited)
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(2) + 3 == .max(5))
        #expect(Demand.max(2) + (-5) == .none)
        #expect(Demand.unlimited + 4 == .unlimited)
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 1
        #expect(demand == .max(3))
    }

    @Test func subtractionNeverGoesBelowZero() {
        #expect(Demand.max(5) - .max(2) == .max(3))
        #expect(Demand.max(2) - .max(5) == .none)
        #expect(Demand.unlimited - .max(9) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.max(5) - 2 == .max(3))
        #expect(Demand.max(1) - 4 == .none)
        #expect(Demand.max(1) - (-4) == .max(5))
        var demand = Demand.max(3)
        demand -= .max(1)
        demand -= 1
        #expect(demand == .max(1))
    }

    @Test func multiplication() {
        #expect(Demand.max(3) * 2 == .max(6))
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func comparisonsWithDemandAndInt() {
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(2) <= .max(2))
        #expect(Demand.unlimited > .max(Int.max))
        #expect(Demand.max(2) >= .none)
        #expect(Demand.max(3) == 3)
        #expect(3 == Demand.max(3))
        #expect(Demand.unlimited != Int.max)
        #expect(Int.max != Demand.unlimited)
        #expect(Demand.max(3) > 2)
        #expect(Demand.max(3) >= 3)
        #expect(Demand.max(3) < 4)
        #expect(Demand.max(3) <= 3)
        #expect(2 < Demand.max(3))
        #expect(3 <= Demand.max(3))
        #expect(4 > Demand.max(3))
        #expect(3 >= Demand.max(3))
        #expect(Demand.unlimited > Int.max)
        #expect(Int.max < Demand.unlimited)
        #expect(Demand.none > -1)
    }

    @Test func codableRoundTripAndHashable() throws {
        for demand in [Demand.none, .max(42), .unlimited] {
            let data = try JSONEncoder().encode(demand)
            #expect(try JSONDecoder().decode(Demand.self, from: data) == demand)
        }
        #expect(Set([Demand.max(1), .max(1), .unlimited]).count == 2)
    }

    @Test func negativeMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("demand must not be negative"))
    }
}

@Suite("Subscribers.Completion")
struct CompletionTests {
    struct Failure: Error, Codable, Hashable {
        let code: Int
    }

    @Test func equatableHashableCodable() throws {
        let completions: [Subscribers.Completion<Failure>] = [.finished, .failure(Failure(code: 1))]
        #expect(completions[0] != completions[1])
        #expect(Set(completions + completions).count == 2)
        for completion in completions {
            let data = try JSONEncoder().encode(completion)
            #expect(try JSONDecoder().decode(Subscribers.Completion<Failure>.self, from: data) == completion)
        }
    }
}

@Suite("CombineIdentifier")
struct CombineIdentifierTests {
    final class Object {}

    @Test func freshIdentifiersAreUnique() {
        let identifiers = (0..<1_000).map { _ in CombineIdentifier() }
        #expect(Set(identifiers).count == 1_000)
    }

    @Test func objectIdentifiersFollowIdentity() {
        let a = Object()
        let b = Object()
        #expect(CombineIdentifier(a) == CombineIdentifier(a))
        #expect(CombineIdentifier(a) != CombineIdentifier(b))
        #expect(CombineIdentifier(a).description.hasPrefix("0x"))
    }

    @Test func classesGetADefaultIdentifier() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.combineIdentifier == CombineIdentifier(sink))
    }
}
