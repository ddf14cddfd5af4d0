// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation
import Testing

@Suite("DispatchQueue scheduler time")
struct DispatchQueueTimeTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    @Test func literalsAreSeconds() {
        let whole: Stride = 2
        let fraction: Stride = 0.25
        #expect(whole.magnitude == 2_000_000_000)
        #expect(fraction.magnitude == 250_000_000)
        #expect(Stride.IntegerLiteralType.self == Int.self)
        #expect(Stride.FloatLiteralType.self == Double.self)
        #expect(Stride.Magnitude.self == Int.self)
    }

    @Test func unitConstructorsCountNanoseconds() {
        #expect(Stride.seconds(3).magnitude == 3_000_000_000)
        #expect(Stride.seconds(1.5).magnitude == 1_500_000_000)
        #expect(Stride.milliseconds(7).magnitude == 7_000_000)
        #expect(Stride.microseconds(9).magnitude == 9_000)
        #expect(Stride.nanoseconds(11).magnitude == 11)
        #expect(Stride.milliseconds(-2).magnitude == -2_000_000)
    }

    @Test func convertsToAndFromDispatchTimeInterval() {
        #expect(Stride(.seconds(2)).magnitude == 2_000_000_000)
        #expect(Stride(.milliseconds(3)).magnitude == 3_000_000)
        #expect(Stride(.microseconds(4)).magnitude == 4_000)
        #expect(Stride(.nanoseconds(5)).magnitude == 5)
        #expect(Stride(.never).magnitude == Int.max)
        #expect(Stride.milliseconds(12).timeInterval == .nanoseconds(12_000_000))
    }

    @Test func oversizedUnitCountsSaturate() {
        #expect(Stride.seconds(Int.max).magnitude == Int.max)
        #expect(Stride.milliseconds(Int.min).magnitude == Int.min)
    }

    /// `init(exactly:)` reads the integer as seconds, like an integer literal, as Apple's.
    @Test func exactlyReadsSecondsAndRejectsWhatDoesNotFit() {
        #expect(Stride(exactly: 42)?.magnitude == 42_000_000_000)
        #expect(Stride(exactly: Int8(-3))?.magnitude == -3_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
    }

    /// Seconds beyond what `Int` nanoseconds hold saturate instead of trapping, as Apple's.
    @Test func secondsSaturate() {
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(-Double(Int.max)).magnitude == .min)
        #expect(Stride.seconds(1.5).magnitude == 1_500_000_000)
    }

    /// Apple's `*` gives a zero interval whatever its operands (a product of two durations is
    /// no duration); code ported from Apple's platforms sees the same here.
    @Test func multiplyingTwoIntervalsGivesZeroAsApples() {
        #expect((Stride.nanoseconds(6) * .nanoseconds(7)).magnitude == 0)
        #expect((Stride.seconds(2) * .seconds(3)).magnitude == 0)
        var stride = Stride.milliseconds(1)
        stride *= .nanoseconds(3)
        #expect(stride == .zero)
    }

    /// As Apple's, `distantFuture` is `.nanoseconds(.max)` away from any other time, in both
    /// directions, and advancing by `.nanoseconds(.max)` reaches it.
    @Test func distantFutureIsAlwaysTheLongestDistanceAway() {
        let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10_000))
        let distantFuture = DispatchQueue.SchedulerTimeType(.distantFuture)
        #expect(time.distance(to: distantFuture) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: time) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: distantFuture) == .nanoseconds(0))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        #expect(time.advanced(by: .nanoseconds(-431)).dispatchTime.uptimeNanoseconds == 9_569)
    }

    @Test func arithmeticWorksOnNanoseconds() {
        var stride = Stride.seconds(1)
        #expect((stride + .milliseconds(500)).magnitude == 1_500_000_000)
        #expect((stride - .seconds(3)).magnitude == -2_000_000_000)
        stride += .milliseconds(1)
        #expect(stride == .nanoseconds(1_001_000_000))
        stride -= .seconds(1)
        #expect(stride == .milliseconds(1))
        #expect(-Stride.seconds(1) == .seconds(-1))
        #expect(Stride.zero.magnitude == 0)
        #expect(Stride.milliseconds(1) < .milliseconds(2))
        #expect(Stride.milliseconds(-5) < .zero)
        #expect(Set([Stride.seconds(1), .milliseconds(1000), .nanoseconds(1)]).count == 2)
    }

    @Test func strideRoundTripsThroughCodable() throws {
        let strides: [Stride] = [.seconds(2), .nanoseconds(-17), .zero]
        let data = try JSONEncoder().encode(strides)
        #expect(try JSONDecoder().decode([Stride].self, from: data) == strides)
        // Apple's key.
        let one = try JSONEncoder().encode(Stride.nanoseconds(419_872))
        #expect(String(decoding: one, as: UTF8.self) == #"{"_nanoseconds":419872}"#)
    }

    @Test func timeEncodesAsUptimeNanoseconds() throws {
        let time = Time(DispatchTime(uptimeNanoseconds: 1_234))
        let data = try JSONEncoder().encode([time])
        #expect(String(decoding: data, as: UTF8.self) == "[1234]")
        #expect(try JSONDecoder().decode([Time].self, from: data) == [time])
    }

    @Test func timesMeasureAndAdvanceInNanoseconds() {
        let start = Time(DispatchTime(uptimeNanoseconds: 1_000))
        let later = start.advanced(by: .microseconds(2))
        #expect(later.dispatchTime.uptimeNanoseconds == 3_000)
        #expect(start.distance(to: later) == .nanoseconds(2_000))
        #expect(later.distance(to: start) == .nanoseconds(-2_000))
        #expect(later.advanced(by: .nanoseconds(-500)).dispatchTime.uptimeNanoseconds == 2_500)
        #expect(start < later)
        #expect(start == Time(DispatchTime(uptimeNanoseconds: 1_000)))
        #expect(Set([start, later, Time(DispatchTime(uptimeNanoseconds: 3_000))]).count == 2)
    }

    /// Never below uptime 1 (Dispatch reads 0 as "now"), as Apple's.
    @Test func advancingStaysWithinTheClock() {
        let early = Time(DispatchTime(uptimeNanoseconds: 10))
        #expect(early.advanced(by: .seconds(-1)).dispatchTime.uptimeNanoseconds == 1)
        let late = Time(DispatchTime(uptimeNanoseconds: UInt64.max - 1))
        #expect(late.advanced(by: .seconds(1)) >= late)
    }

    @Test func nowIsDispatchTimeNow() {
        let before = DispatchTime.now()
        let now = DispatchQueue.main.now
        let after = DispatchTime.now()
        #expect(before <= now.dispatchTime && now.dispatchTime <= after)
        #expect(DispatchQueue.main.minimumTolerance == .zero)
    }

    @Test func optionsDefaultToNothingSpecial() async {
        await offThePool {
            let options = DispatchQueue.SchedulerOptions()
            #expect(options.qos == .unspecified)
            #expect(options.flags.isEmpty)
            #expect(options.group == nil)
            let group = DispatchGroup()
            let custom = DispatchQueue.SchedulerOptions(qos: .userInitiated, flags: .barrier, group: group)
            #expect(custom.qos == .userInitiated && custom.flags == .barrier && custom.group === group)
        }
    }
}
