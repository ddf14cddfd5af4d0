// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Dispatch)
import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue.
    ///
    /// An instant on the system's uptime clock, the clock of `DispatchTime`. It encodes as the
    /// single number `dispatchTime.uptimeNanoseconds`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        ///
        /// - Parameter time: The dispatch time to represent.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Creates a dispatch queue time from its encoded number of uptime nanoseconds.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self)))
        }

        /// Encodes this time as its number of uptime nanoseconds.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Returns the distance to another dispatch queue time.
        ///
        /// As Apple's: when either time lies beyond `Int.max` uptime nanoseconds (such as
        /// `DispatchTime.distantFuture`), the distance between two different times is
        /// `.nanoseconds(.max)` whichever comes first.
        ///
        /// - Parameter other: Another dispatch queue time.
        /// - Returns: The time interval between this time and the provided time, negative if
        ///   `other` is earlier.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let from = dispatchTime.uptimeNanoseconds
            let to = other.dispatchTime.uptimeNanoseconds
            if from == to { return .nanoseconds(0) }
            guard let start = Int(exactly: from), let end = Int(exactly: to) else { return .nanoseconds(.max) }
            return .nanoseconds(end - start)
        }

        /// Returns a dispatch queue scheduler time calculated by advancing this instance's time
        /// by the given interval.
        ///
        /// The result stays within the clock's range: it never goes below uptime one, and a
        /// sum beyond the largest uptime saturates there; as Apple's, advancing by
        /// `.nanoseconds(.max)` gives `DispatchTime.distantFuture`.
        ///
        /// - Parameter n: A time interval to advance.
        /// - Returns: A dispatch queue time advanced by the given interval from this instance's
        ///   time.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            if n.magnitude == .max { return SchedulerTimeType(.distantFuture) }
            let start = dispatchTime.uptimeNanoseconds
            let uptime: UInt64
            if n.magnitude >= 0 {
                let (sum, overflow) = start.addingReportingOverflow(UInt64(n.magnitude))
                uptime = overflow ? .max : sum
            } else {
                let back = n.magnitude.magnitude
                // Never uptime 0, which Dispatch reads as "now": 1, as Apple's.
                uptime = start > UInt64(back) ? start - UInt64(back) : 1
            }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: uptime))
        }

        /// Returns a Boolean value that tells whether `lhs` is earlier than `rhs`.
        public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
        }

        /// Returns a Boolean value that tells whether two dispatch queue times are the same
        /// instant.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// Hashes the instant's uptime nanoseconds.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// A signed span of time between two dispatch queue times, counted in nanoseconds.
        ///
        /// Integer and floating-point literals are seconds; the `seconds`, `milliseconds`,
        /// `microseconds` and `nanoseconds` functions name their unit:
        ///
        /// ```swift
        /// let a: DispatchQueue.SchedulerTimeType.Stride = 2      // 2_000_000_000 ns
        /// let b: DispatchQueue.SchedulerTimeType.Stride = 0.25   //   250_000_000 ns
        /// let c = DispatchQueue.SchedulerTimeType.Stride.milliseconds(5)
        /// ```
        ///
        /// As in Apple's Combine, ``init(exactly:)`` reads its integer as seconds, like a literal;
        /// conversions from seconds saturate at `Int.max`/`Int.min` nanoseconds; and `*` gives a
        /// zero interval whatever its operands (Apple's does; a product of two durations has no
        /// meaning as a duration). It encodes as `{"_nanoseconds": n}`, Apple's key.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// If created via floating point literal, the value is converted to nanoseconds via
            /// multiplication.
            public typealias FloatLiteralType = Double

            /// The type of an integer literal, a number of seconds.
            public typealias IntegerLiteralType = Int

            /// The type of ``magnitude``: a number of nanoseconds.
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds (negative for a span backwards).
            public var magnitude: Int

            /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            /// Creates a dispatch queue time interval from the given dispatch time interval.
            ///
            /// A count too large for nanoseconds in an `Int` saturates; `.never` is `Int.max`.
            ///
            /// - Parameter timeInterval: A dispatch time interval.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): magnitude = Stride.scaled(s, by: 1_000_000_000)
                case .milliseconds(let ms): magnitude = Stride.scaled(ms, by: 1_000_000)
                case .microseconds(let us): magnitude = Stride.scaled(us, by: 1_000)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// Creates a dispatch queue time interval from a floating-point seconds value.
            ///
            /// - Parameter value: The number of seconds, as a `Double`.
            public init(floatLiteral value: Double) {
                magnitude = Stride.nanoseconds(fromSeconds: value)
            }

            /// Creates a dispatch queue time interval from an integer seconds value.
            ///
            /// - Parameter value: The number of seconds, as an `Int`.
            public init(integerLiteral value: Int) {
                magnitude = Stride.scaled(value, by: 1_000_000_000)
            }

            /// Creates a dispatch queue time interval from a binary integer type.
            ///
            /// The integer is a number of seconds, as in Apple's Combine. If it does not fit in
            /// an `Int`, the result is `nil`.
            ///
            /// - Parameter source: A binary integer representing a time interval in seconds.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                magnitude = Stride.scaled(seconds, by: 1_000_000_000)
            }

            private init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            private enum CodingKeys: String, CodingKey {
                case nanoseconds = "_nanoseconds"
            }

            /// Creates an interval from its encoded number of nanoseconds.
            public init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                magnitude = Int(try container.decode(Int64.self, forKey: .nanoseconds))
            }

            /// Encodes the interval as its number of nanoseconds, under Apple's key.
            public func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(Int64(magnitude), forKey: .nanoseconds)
            }

            /// Seconds as nanoseconds, saturating at the ends of `Int`.
            private static func nanoseconds(fromSeconds seconds: Double) -> Int {
                let nanoseconds = seconds * 1_000_000_000
                if nanoseconds >= Double(Int.max) { return .max }
                if nanoseconds <= Double(Int.min) { return .min }
                return Int(nanoseconds)
            }

            private static func scaled(_ count: Int, by factor: Int) -> Int {
                let (product, overflow) = count.multipliedReportingOverflow(by: factor)
                return overflow ? (count > 0 ? .max : .min) : product
            }

            /// Returns a Boolean value that tells whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool {
                lhs.magnitude < rhs.magnitude
            }

            /// A zero interval, whatever the operands, as Apple's.
            public static func * (lhs: Stride, rhs: Stride) -> Stride {
                .nanoseconds(0)
            }

            /// Adds two intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                .nanoseconds(lhs.magnitude + rhs.magnitude)
            }

            /// Subtracts one interval from another.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                .nanoseconds(lhs.magnitude - rhs.magnitude)
            }

            /// Subtracts `rhs` from `lhs` in place.
            public static func -= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs - rhs
            }

            /// Sets `lhs` to a zero interval, as Apple's (see ``*(_:_:)``).
            public static func *= (lhs: inout Stride, rhs: Stride) {
                lhs = lhs * rhs
            }

            /// Adds `rhs` to `lhs` in place.
            public static func += (lhs: inout Stride, rhs: Stride) {
                lhs = lhs + rhs
            }

            /// Converts a number of seconds, as a `Double`, into a dispatch queue interval.
            public static func seconds(_ s: Double) -> Stride {
                .nanoseconds(nanoseconds(fromSeconds: s))
            }

            /// Converts a number of seconds into a dispatch queue interval.
            public static func seconds(_ s: Int) -> Stride {
                Stride(.seconds(s))
            }

            /// Converts a number of milliseconds into a dispatch queue interval.
            public static func milliseconds(_ ms: Int) -> Stride {
                Stride(.milliseconds(ms))
            }

            /// Converts a number of microseconds into a dispatch queue interval.
            public static func microseconds(_ us: Int) -> Stride {
                Stride(.microseconds(us))
            }

            /// Converts a number of nanoseconds into a dispatch queue interval.
            public static func nanoseconds(_ ns: Int) -> Stride {
                Stride(nanoseconds: ns)
            }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    ///
    /// ```swift
    /// publisher.receive(on: queue, options: .init(qos: .userInitiated))
    /// ```
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS

        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags

        /// The dispatch group, if any, that should be used for performing actions.
        ///
        /// Only ``DispatchQueue/schedule(options:_:)`` uses the group, as in Apple's Combine.
        public var group: DispatchGroup?

        /// Creates a dispatch queue scheduler options instance with the given options.
        ///
        /// - Parameters:
        ///   - qos: The quality of service of the work.
        ///   - flags: The work item flags.
        ///   - group: A dispatch group to associate the work with.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The minimum tolerance allowed by the dispatch queue scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride {
        SchedulerTimeType.Stride(.seconds(0))
    }

    /// The dispatch queue scheduler's definition of the current moment in time:
    /// `DispatchTime.now()`.
    public var now: SchedulerTimeType {
        SchedulerTimeType(DispatchTime.now())
    }

    /// Performs the action asynchronously on this queue, with the options' quality of service
    /// and flags, and in the options' group if there is one.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = SchedulerAction(action).sendable
        let qos = options?.qos ?? .unspecified
        let flags = options?.flags ?? []
        if let group = options?.group {
            async(group: group, qos: qos, flags: flags, execute: action)
        } else {
            async(qos: qos, flags: flags, execute: action)
        }
    }

    /// Performs the action on this queue once the clock reaches `date`.
    ///
    /// The tolerance is not used, as in Apple's Combine; the options' quality of service and
    /// flags are.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        asyncAfter(
            deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? [],
            execute: SchedulerAction(action).sendable)
    }

    /// Performs the action on this queue from `date` on, every `interval`, with `tolerance` as
    /// the timer's leeway, until the returned cancellable is cancelled or released.
    ///
    /// A `DispatchSourceTimer` targeting this queue drives the repetition; cancelling stops it
    /// (an action already running finishes).
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let action = SchedulerAction(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.schedule(
            deadline: date.dispatchTime, repeating: interval.timeInterval,
            leeway: .nanoseconds(max(tolerance.magnitude, 0)))
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) { action.run() }
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
#endif
