// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A publisher that passes its upstream's events on and stops the process in the debugger
    /// when one of its closures returns `true` for an event.
    ///
    /// When a closure returns `true`, the process receives `SIGTRAP`: a debugger stops
    /// there; without one attached the process ends, as on Apple's platforms.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The upstream's output type, passed on unchanged.
        public typealias Output = Upstream.Output
        /// The upstream's failure type, passed on unchanged.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are checked.
        public let upstream: Upstream

        /// Called with the upstream's subscription before it goes downstream; returning `true`
        /// stops in the debugger.
        public let receiveSubscription: ((Subscription) -> Bool)?

        /// Called with each upstream value before it goes downstream; returning `true` stops in
        /// the debugger.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// Called with the upstream's completion before it goes downstream; returning `true`
        /// stops in the debugger.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint
        /// closures.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Breakpoint<Upstream>.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            upstream.subscribe(Inner(downstream: subscriber, breakpoint: self))
        }

        /// Like Apple's, a value type that passes the upstream subscription straight through
        /// and stops in the debugger (`SIGTRAP`) where a closure returns `true`, before
        /// passing the event on.
        @usableFromInline
        struct Inner<Downstream: Subscriber>: ForwardingSubscriber
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline typealias Input = Output

            @usableFromInline let downstream: Downstream
            @usableFromInline let breakpoint: Breakpoint
            @usableFromInline let combineIdentifier = CombineIdentifier()

            @usableFromInline var description: String { "Breakpoint" }

            @usableFromInline
            init(downstream: Downstream, breakpoint: Breakpoint) {
                self.downstream = downstream
                self.breakpoint = breakpoint
            }

            @usableFromInline
            func receive(subscription: Subscription) {
                stopIf(breakpoint.receiveSubscription?(subscription))
                downstream.receive(subscription: subscription)
            }

            @usableFromInline
            func receive(_ input: Output) -> Subscribers.Demand {
                stopIf(breakpoint.receiveOutput?(input))
                return downstream.receive(input)
            }

            @usableFromInline
            func receive(completion: Subscribers.Completion<Failure>) {
                stopIf(breakpoint.receiveCompletion?(completion))
                downstream.receive(completion: completion)
            }

            @usableFromInline
            func stopIf(_ hit: Bool?) {
                if hit == true { debuggerBreak() }
            }
        }
    }
}

extension Publisher {
    /// Stops the process in the debugger when one of the given closures returns `true` for the
    /// event it checks.
    ///
    /// ![A marble diagram of breakpoint(receiveSubscription:), drawn from a run of it](marble-breakpoint)
    ///
    /// Each closure sees one kind of event before it is passed on; when it returns `true`,
    /// the process stops in the attached debugger (`SIGTRAP`), where you can inspect the
    /// stack. Without a debugger attached, the process ends there. Events are otherwise
    /// passed on unchanged, demand included.
    ///
    /// ```swift
    /// let cancellable = [1, 2, -1, 3].publisher
    ///     .breakpoint(receiveOutput: { $0 < 0 })
    ///     .sink { print($0) }
    /// // Prints: 1, 2, then stops in the debugger before -1 reaches the sink
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: A closure called with the upstream's subscription; return
    ///     `true` to stop in the debugger. `nil` checks nothing.
    ///   - receiveOutput: A closure called with each value; return `true` to stop in the
    ///     debugger. `nil` checks nothing.
    ///   - receiveCompletion: A closure called with the completion; return `true` to stop in
    ///     the debugger. `nil` checks nothing.
    /// - Returns: A ``Publishers/Breakpoint`` publisher that republishes this publisher's
    ///   events, stopping in the debugger where a closure returns `true`.
    public func breakpoint(
        receiveSubscription: ((Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Stops the process in the debugger when this publisher fails.
    ///
    /// ![A marble diagram of breakpointOnError(), drawn from a run of it](marble-breakpointOnError)
    ///
    /// Values and a `.finished` completion pass through unchanged; a failure stops the
    /// process in the attached debugger (`SIGTRAP`) before it is passed on. Without a
    /// debugger attached, the process ends there.
    ///
    /// ```swift
    /// struct ParseError: Error {}
    /// let cancellable = ["1", "x"].publisher
    ///     .tryMap { text -> Int in
    ///         guard let number = Int(text) else { throw ParseError() }
    ///         return number
    ///     }
    ///     .breakpointOnError()
    ///     .sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
    /// // Prints: 1, then stops in the debugger when "x" fails to parse
    /// ```
    ///
    /// - Returns: A ``Publishers/Breakpoint`` publisher that republishes this publisher's
    ///   events, stopping in the debugger on a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { if case .failure = $0 { true } else { false } })
    }
}
