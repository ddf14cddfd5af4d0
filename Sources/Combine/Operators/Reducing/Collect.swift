// SPDX-License-Identifier: Apache-2.0
extension Publishers {
    /// A publisher that buffers items.
    ///
    /// ```
    /// upstream:  --1--2--3--|
    /// collect(): -----------[1,2,3]|
    /// ```
    ///
    /// It asks upstream for everything and publishes one array when the upstream finishes,
    /// once the subscriber has requested a value. A failure is passed on without the array.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// Each element it sends is an array of upstream elements.
        public typealias Output = [Upstream.Output]
        /// The type of error it fails with, the same as the upstream publisher's.
        public typealias Failure = Upstream.Failure

        /// The publisher this one subscribes to.
        public let upstream: Upstream

        /// Creates a publisher that buffers all elements of the upstream into one array.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == [Upstream.Output], Upstream.Failure == S.Failure {
            upstream.subscribe(
                ReducingSubscription<Collector, Failure, S>(
                    Collector(), downstream: subscriber, name: "Collect", convertFailure: sameFailure))
        }

        struct Collector: Reducer {
            var elements: [Upstream.Output] = []

            mutating func receive(_ input: Upstream.Output) -> ReduceStep<Upstream.Failure> {
                elements.append(input)
                return .continue
            }

            func result() -> [Upstream.Output]? { elements }

            var mirrorChildren: [Mirror.Child]? { [("count", elements.count)] }
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects every element from the upstream publisher and publishes them as one array
    /// when the upstream finishes.
    ///
    /// ![A marble diagram of collect(), drawn from a run of it](marble-collect)
    ///
    /// The operator asks the upstream for everything as soon as it is subscribed and keeps
    /// every element in memory until the upstream finishes. It then publishes the array (empty
    /// if no element came), followed by `.finished`, once the subscriber has requested a value.
    /// If the upstream fails, the failure is passed on and the collected elements are
    /// discarded. For a long or endless upstream, `collect(_:)` or `collect(_:options:)`
    /// publish smaller arrays as they go.
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher
    ///     .collect()
    ///     .sink { print($0) }
    /// // Prints: [1, 2, 3]
    /// ```
    ///
    /// - Returns: A `Publishers.Collect` publisher that publishes one array of all the
    ///   upstream's elements, in the order they came.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
