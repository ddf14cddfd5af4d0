// SPDX-License-Identifier: Apache-2.0
import Combine
import Foundation
import Testing

/// `RunLoop` and `OperationQueue` count time the same way — a `Date`, strides in seconds as
/// `TimeInterval` — with separate types; each test runs for both.
@Suite("RunLoop and OperationQueue scheduler time")
struct DateSchedulerTimeTests {
    typealias RunLoopStride = RunLoop.SchedulerTimeType.Stride
    typealias QueueStride = OperationQueue.SchedulerTimeType.Stride

    @Test func literalTypesAreTimeIntervals() {
        #expect(RunLoopStride.IntegerLiteralType.self == TimeInterval.self)
        #expect(RunLoopStride.FloatLiteralType.self == TimeInterval.self)
        #expect(RunLoopStride.Magnitude.self == TimeInterval.self)
        #expect(QueueStride.IntegerLiteralType.self == TimeInterval.self)
        #expect(QueueStride.FloatLiteralType.self == TimeInterval.self)
        #expect(QueueStride.Magnitude.self == TimeInterval.self)
    }

    @Test func literalsAreSeconds() {
        let runLoopWhole: RunLoopStride = 2
        let runLoopFraction: RunLoopStride = 0.5
        let queueWhole: QueueStride = 3
        let queueFraction: QueueStride = 0.25
        #expect(runLoopWhole.timeInterval == 2 && runLoopFraction.magnitude == 0.5)
        #expect(queueWhole.timeInterval == 3 && queueFraction.magnitude == 0.25)
    }

    @Test func unitConstructorsCountSeconds() {
        #expect(RunLoopStride.seconds(2).timeInterval == 2)
        #expect(RunLoopStride.seconds(0.75).timeInterval == 0.75)
        #expect(RunLoopStride.milliseconds(250).timeInterval == 0.25)
        #expect(RunLoopStride.microseconds(500).timeInterval == 0.000_5)
        #expect(RunLoopStride.nanoseconds(1_000).timeInterval == 0.000_001)
        #expect(QueueStride.seconds(2).timeInterval == 2)
        #expect(QueueStride.seconds(0.75).timeInterval == 0.75)
        #expect(QueueStride.milliseconds(250).timeInterval == 0.25)
        #expect(QueueStride.microseconds(500).timeInterval == 0.000_5)
        #expect(QueueStride.nanoseconds(1_000).timeInterval == 0.000_001)
    }

    /// Unlike Dispatch's, these strides read `init(exactly:)`'s integer as seconds.
    @Test func exactlyReadsSeconds() {
        #expect(RunLoopStride(exactly: 4)?.timeInterval == 4)
        #expect(QueueStride(exactly: -4)?.timeInterval == -4)
        #expect(RunLoopStride(exactly: UInt64.max - 1) == nil)
        #expect(QueueStride(exactly: Int64.max) == nil)
    }

    @Test func arithmeticWorksOnSeconds() {
        var runLoop = RunLoopStride(1.5)
        runLoop += 0.5
        runLoop *= 3
        runLoop -= 1
        #expect(runLoop == 5)
        #expect((RunLoopStride.seconds(2) * .seconds(3)).timeInterval == 6)
        #expect(-RunLoopStride.seconds(1) < .zero)
        var queue = QueueStride(1.5)
        queue += 0.5
        queue *= 3
        queue -= 1
        #expect(queue == 5)
        #expect((QueueStride.seconds(2) - .seconds(3)).timeInterval == -1)
        #expect(QueueStride.milliseconds(1) < .milliseconds(2))
    }

    @Test func stridesAndTimesRoundTripThroughCodable() throws {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        let runLoopStrides: [RunLoopStride] = [2, 0.125, -1]
        let queueStrides: [QueueStride] = [2, 0.125, -1]
        #expect(try decoder.decode([RunLoopStride].self, from: encoder.encode(runLoopStrides)) == runLoopStrides)
        #expect(try decoder.decode([QueueStride].self, from: encoder.encode(queueStrides)) == queueStrides)
        let date = Date(timeIntervalSince1970: 1_000)
        let runLoopTime = RunLoop.SchedulerTimeType(date)
        let queueTime = OperationQueue.SchedulerTimeType(date)
        #expect(try decoder.decode(RunLoop.SchedulerTimeType.self, from: encoder.encode(runLoopTime)) == runLoopTime)
        #expect(
            try decoder.decode(OperationQueue.SchedulerTimeType.self, from: encoder.encode(queueTime)) == queueTime)
    }

    @Test func timesMeasureAndAdvanceInSeconds() {
        let origin = Date(timeIntervalSince1970: 100)
        let runLoopStart = RunLoop.SchedulerTimeType(origin)
        let runLoopLater = runLoopStart.advanced(by: .milliseconds(1_500))
        #expect(runLoopLater.date == Date(timeIntervalSince1970: 101.5))
        #expect(runLoopStart.distance(to: runLoopLater) == 1.5)
        #expect(runLoopLater.distance(to: runLoopStart) == -1.5)
        #expect(runLoopStart < runLoopLater)
        #expect(Set([runLoopStart, runLoopLater, RunLoop.SchedulerTimeType(origin)]).count == 2)
        let queueStart = OperationQueue.SchedulerTimeType(origin)
        let queueLater = queueStart.advanced(by: .seconds(2))
        #expect(queueLater.date == Date(timeIntervalSince1970: 102))
        #expect(queueLater.distance(to: queueStart) == -2)
        #expect(Set([queueStart, queueLater, OperationQueue.SchedulerTimeType(origin)]).count == 2)
    }

    @Test func nowIsTheCurrentDateAndToleranceIsZero() {
        let before = Date()
        let runLoopNow = RunLoop.main.now.date
        let queueNow = OperationQueue.main.now.date
        let after = Date()
        #expect(before <= runLoopNow && runLoopNow <= after)
        #expect(before <= queueNow && queueNow <= after)
        #expect(RunLoop.main.minimumTolerance == .zero)
        #expect(OperationQueue.main.minimumTolerance == .zero)
    }
}
