// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Republishes values for a span of time from the subscription, then finishes and cancels
    /// the upstream.
    ///
    /// ![A marble diagram of prefix(duration:tolerance:on:options:), drawn from a run of it](marble-prefix-duration)
    ///
    /// ```swift
    /// // upstream:                  -1--2--3--4-|
    /// // prefix(duration: 6 ticks): -1--2-|                 (finishes at tick 6)
    /// events.prefix(duration: .seconds(5), on: DispatchQueue.main)
    /// ```
    ///
    /// The clock starts when a subscriber subscribes: the end is scheduled on `scheduler`
    /// `duration` later. An upstream that completes or fails before then ends the stream with
    /// its own completion. Demand passes to the upstream.
    ///
    /// It is `prefix(untilOutputFrom:)` with the first tick of ``Publishers/Interval`` as the
    /// trigger (CombineExt uses a timer the same way): when the stream ends otherwise — the
    /// subscriber cancels, the upstream completes — the timer is cancelled with it, and nothing
    /// stays scheduled until the duration is over. A duration of zero or less ends the stream
    /// on the scheduler's next turn.
    ///
    /// - Parameters:
    ///   - duration: How long values are republished.
    ///   - tolerance: The tolerance of the end time; `nil` for the scheduler's minimum.
    ///   - scheduler: The scheduler that ends the stream.
    ///   - options: Scheduler options for the end.
    /// - Returns: A publisher of the values published within `duration`.
    public func prefix<S: Scheduler>(
        duration: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, on scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> AnyPublisher<Output, Failure> {
        guard duration > .zero else {
            return prefix(untilOutputFrom: Just(()).receive(on: scheduler, options: options)).eraseToAnyPublisher()
        }
        let end = Publishers.Interval(duration, tolerance: tolerance, scheduler: scheduler, options: options)
        return prefix(untilOutputFrom: end).eraseToAnyPublisher()
    }
}
