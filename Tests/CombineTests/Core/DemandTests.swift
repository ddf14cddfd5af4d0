// SPDX-License-Identifier: Apache-2.0
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
        let result = await runningExitTest {
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = Subscribers.Demand.max(-1)
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("demand must not be negative"))
    }

    // The edges Apple documents: `.unlimited` absorbs, sums and products saturate at
    // `.unlimited` past `Int.max`, and a result below zero is `.none` ("A negative demand is
    // impossible; when an operation would result in a negative value, Combine adjusts the
    // value to .max(0).").

    @Test func maxReportsTheCountOrNilForUnlimited() {
        #expect(Demand.max(0).max == 0)
        #expect(Demand.max(1).max == 1)
        #expect(Demand.max(Int.max).max == Int.max)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(Int.max) < .unlimited)
    }

    @Test func descriptionOfTheLargestFiniteDemand() {
        #expect(Demand.max(Int.max).description == "max(\(Int.max))")
        #expect("\(Demand.unlimited)" == "unlimited")
        #expect("\(Demand.max(12))" == "max(12)")
    }

    @Test func addingDemandsSaturatesAtUnlimited() {
        #expect(Demand.none + .none == .none)
        #expect(Demand.unlimited + .unlimited == .unlimited)
        #expect(Demand.max(Int.max - 1) + .max(1) == .max(Int.max))
        #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
        #expect(Demand.max(Int.max) + .none == .max(Int.max))
        var demand = Demand.max(Int.max)
        demand += .max(1)
        #expect(demand == .unlimited)
    }

    @Test func addingIntegers() {
        #expect(Demand.max(Int.max - 1) + 1 == .max(Int.max))
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(1) + Int.max == .unlimited)
        #expect(Demand.max(5) + (-2) == .max(3))
        #expect(Demand.max(5) + (-5) == .none)
        #expect(Demand.max(5) + Int.min == .none)
        #expect(Demand.unlimited + (-5) == .unlimited)
        #expect(Demand.unlimited + Int.min == .unlimited)
        var demand = Demand.max(2)
        demand += -3
        #expect(demand == .none)
        demand += Int.max
        demand += 1
        #expect(demand == .unlimited)
    }

    @Test func subtractingDemandsNeverGoesBelowZero() {
        #expect(Demand.max(3) - .max(3) == .none)
        #expect(Demand.none - .max(1) == .none)
        #expect(Demand.none - .unlimited == .none)
        #expect(Demand.max(Int.max) - .unlimited == .none)
        #expect(Demand.unlimited - .max(Int.max) == .unlimited)
        #expect(Demand.max(Int.max) - .max(Int.max - 1) == .max(1))
        var demand = Demand.max(1)
        demand -= .max(2)
        #expect(demand == .none)
        var unlimited = Demand.unlimited
        unlimited -= .unlimited
        #expect(unlimited == .unlimited)
    }

    @Test func subtractingIntegers() {
        #expect(Demand.max(3) - 3 == .none)
        #expect(Demand.max(3) - Int.max == .none)
        #expect(Demand.unlimited - 1 == .unlimited)
        #expect(Demand.unlimited - Int.max == .unlimited)
        #expect(Demand.max(1) - (-1) == .max(2))
        // Apple's: a finite demand pushed past Int.max by a negative subtraction is .none,
        // not .unlimited (recorded by the conformance suite's SubscribersDemandTests).
        #expect(Demand.max(Int.max) - (-1) == .none)
        var demand = Demand.max(4)
        demand -= 5
        #expect(demand == .none)
        demand -= -2
        #expect(demand == .max(2))
    }

    @Test func multiplyingSaturatesAndUnlimitedStaysUnlimited() {
        #expect(Demand.none * 1_000 == .none)
        #expect(Demand.max(1) * Int.max == .max(Int.max))
        #expect(Demand.max(2) * Int.max == .unlimited)
        #expect(Demand.max(Int.max) * 2 == .unlimited)
        #expect(Demand.unlimited * 0 == .unlimited)
        #expect(Demand.unlimited * 1 == .unlimited)
        var demand = Demand.max(Int.max / 2 + 1)
        demand *= 2
        #expect(demand == .unlimited)
        var finite = Demand.max(7)
        finite *= 0
        #expect(finite == .none)
    }

    @Test func comparingDemands() {
        #expect(Demand.none < .max(1))
        #expect(!(Demand.max(1) < .max(1)))
        #expect(Demand.max(1) <= .max(1))
        #expect(!(Demand.max(2) <= .max(1)))
        #expect(Demand.max(2) > .max(1))
        #expect(!(Demand.max(1) > .max(1)))
        #expect(Demand.max(1) >= .max(1))
        #expect(!(Demand.max(1) >= .max(2)))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(!(Demand.unlimited < .unlimited))
        #expect(Demand.unlimited <= .unlimited)
        #expect(Demand.unlimited >= .unlimited)
        #expect(!(Demand.unlimited > .unlimited))
        #expect(
            [Demand.unlimited, .max(3), .none, .max(Int.max)].sorted() == [.none, .max(3), .max(Int.max), .unlimited])
    }

    @Test func equalityWithIntegersInBothDirections() {
        #expect(Demand.max(3) == 3)
        #expect(!(Demand.max(3) == 4))
        #expect(3 == Demand.max(3))
        #expect(!(4 == Demand.max(3)))
        #expect(Demand.max(3) != 4)
        #expect(!(Demand.max(3) != 3))
        #expect(4 != Demand.max(3))
        #expect(!(3 != Demand.max(3)))
        // An unlimited demand matches no integer, not even Int.max.
        #expect(!(Demand.unlimited == Int.max))
        #expect(!(Int.max == Demand.unlimited))
        #expect(Demand.max(Int.max) == Int.max)
        #expect(Demand.none == 0)
        #expect(!(Demand.none == -1))
        #expect(Demand.none != -1)
    }

    @Test func orderingAgainstIntegersWithDemandOnTheLeft() {
        #expect(Demand.max(3) < 4)
        #expect(!(Demand.max(3) < 3))
        #expect(Demand.max(3) <= 3)
        #expect(!(Demand.max(3) <= 2))
        #expect(Demand.max(3) > 2)
        #expect(!(Demand.max(3) > 3))
        #expect(Demand.max(3) >= 3)
        #expect(!(Demand.max(3) >= 4))
        // `.unlimited` is greater than every integer.
        #expect(Demand.unlimited > Int.max)
        #expect(Demand.unlimited >= Int.max)
        #expect(!(Demand.unlimited < Int.max))
        #expect(!(Demand.unlimited <= Int.max))
        // A negative integer is less than every demand.
        #expect(Demand.none > -1)
        #expect(Demand.none >= Int.min)
        #expect(!(Demand.none < -1))
        #expect(!(Demand.none <= -1))
    }

    @Test func orderingAgainstIntegersWithIntegerOnTheLeft() {
        #expect(2 < Demand.max(3))
        #expect(!(3 < Demand.max(3)))
        #expect(3 <= Demand.max(3))
        #expect(!(4 <= Demand.max(3)))
        #expect(4 > Demand.max(3))
        #expect(!(3 > Demand.max(3)))
        #expect(3 >= Demand.max(3))
        #expect(!(2 >= Demand.max(3)))
        #expect(Int.max < Demand.unlimited)
        #expect(Int.max <= Demand.unlimited)
        #expect(!(Int.max > Demand.unlimited))
        #expect(!(Int.max >= Demand.unlimited))
        #expect(-1 < Demand.none)
        #expect(!(-1 >= Demand.none))
    }

    @Test func hashableAgreesWithEquality() {
        #expect(Demand.max(4).hashValue == (Demand.max(2) + 2).hashValue)
        #expect(Demand.unlimited.hashValue == (Demand.max(Int.max) + 1).hashValue)
        let set: Set<Demand> = [.none, .max(0), .max(1), .max(Int.max), .unlimited, .max(Int.max) + 1]
        #expect(set == [.none, .max(1), .max(Int.max), .unlimited])
    }

    /// Apple's encoding: a number, `.unlimited` as `Int.max + 1`; anything larger decodes as
    /// `.unlimited`, a negative number does not decode.
    @Test func codableUsesApplesNumbers() throws {
        let encoded = try JSONEncoder().encode([Demand.max(42), .unlimited])
        #expect(String(decoding: encoded, as: UTF8.self) == "[42,\(UInt(Int.max) + 1)]")
        let tooBig = Data("[\(UInt(Int.max) + 2)]".utf8)
        #expect(try JSONDecoder().decode([Demand].self, from: tooBig) == [.unlimited])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Demand].self, from: Data("[-1]".utf8)) }
    }

    @Test(arguments: [Subscribers.Demand.none, .max(1), .max(1_000), .max(Int.max), .unlimited])
    func codableRoundTrip(_ demand: Subscribers.Demand) throws {
        let data = try JSONEncoder().encode([demand])
        let decoded = try JSONDecoder().decode([Subscribers.Demand].self, from: data)
        #expect(decoded == [demand])
        #expect(decoded[0].max == demand.max)
    }
}
