// SPDX-License-Identifier: Apache-2.0
import Combine
import Dispatch
import Foundation

extension DispatchQueue {
    /// A new virtual-time scheduler standing in for a dispatch queue, its clock at uptime
    /// nanosecond 1.
    ///
    /// Hand it to code that takes a `DispatchQueue` scheduler (or any `Scheduler` with
    /// `DispatchQueue`'s time and options) and move its clock with `DispatchQueue` strides:
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// scheduler.advance(by: .milliseconds(300))
    /// ```
    ///
    /// The clock starts at 1, not 0: to Dispatch, an uptime of zero means "now".
    public static var test: TestSchedulerOf<DispatchQueue> {
        TestScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// A new virtual-time scheduler standing in for a run loop, its clock at
    /// `Date(timeIntervalSince1970: 0)`.
    ///
    /// ```swift
    /// let scheduler = RunLoop.test
    /// scheduler.advance(by: .seconds(1))   // scheduler.now.date == Date(timeIntervalSince1970: 1)
    /// ```
    public static var test: TestSchedulerOf<RunLoop> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}

extension OperationQueue {
    /// A new virtual-time scheduler standing in for an operation queue, its clock at
    /// `Date(timeIntervalSince1970: 0)`.
    ///
    /// ```swift
    /// let scheduler = OperationQueue.test
    /// scheduler.advance(by: .milliseconds(500))
    /// ```
    public static var test: TestSchedulerOf<OperationQueue> {
        TestScheduler(now: SchedulerTimeType(Date(timeIntervalSince1970: 0)))
    }
}
