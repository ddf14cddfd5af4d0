// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Subscribers {
    /// A subscriber that asks for every value as soon as it is subscribed and hands each event
    /// to a closure.
    ///
    /// It calls `receiveValue` for each value and `receiveCompletion` once at the end. After
    /// completion or ``cancel()`` it releases its subscription and both closures, which
    /// breaks any cycle through an object they capture.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The closures, each wrapped in a struct so that reading one under the lock copies it
        /// as it is stored (no re-abstraction, no allocation), and a delivery copies — retains —
        /// only the value closure.
        @usableFromInline
        struct Handler<Argument> {
            @usableFromInline let call: (Argument) -> Void

            @inlinable
            init(_ call: @escaping (Argument) -> Void) { self.call = call }
        }

        @usableFromInline let lock = Lock()
        @usableFromInline @exclusivity(unchecked) var status = SubscriberStatus.awaitingSubscription
        /// `nil` once the sink has completed or been cancelled: the closures are released then.
        @usableFromInline @exclusivity(unchecked) var valueHandler: Handler<Input>?
        @usableFromInline @exclusivity(unchecked) var completionHandler: Handler<Subscribers.Completion<Failure>>?

        /// The closure to execute on receipt of a value; a no-op once the sink has completed
        /// or been cancelled.
        public var receiveValue: (Input) -> Void {
            lock.withLock { valueHandler }?.call ?? { _ in }
        }

        /// The closure to execute on completion; a no-op once the sink has completed or been
        /// cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLock { completionHandler }?.call ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            valueHandler = Handler(receiveValue)
            completionHandler = Handler(receiveCompletion)
        }

        /// A textual description of the subscriber: "Sink".
        public var description: String { "Sink" }

        /// A mirror with no children.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The description shown in a playground: the same as `description`.
        public var playgroundDescription: Any { description }

        /// Takes the subscription and requests an unlimited number of values.
        ///
        /// A second subscription, or one that arrives after the sink was cancelled or
        /// completed, is cancelled at once.
        ///
        /// - Parameter subscription: The subscription the publisher hands over.
        public func receive(subscription: Subscription) {
            let accepted: Bool = lock.withLock {
                guard case .awaitingSubscription = status else { return false }
                status = .subscribed(subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Calls `receiveValue` with the value, unless the sink has completed or been
        /// cancelled.
        ///
        /// - Parameter value: The value the publisher delivers.
        /// - Returns: `.none`: the sink asked for everything at the start.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.withLock { valueHandler }?.call(value)
            return .none
        }

        /// Calls `receiveCompletion` with the completion, then releases both closures and
        /// the subscription. Only the first completion is passed on.
        ///
        /// - Parameter completion: How the publisher ended: `.finished` or `.failure`.
        public func receive(completion: Subscribers.Completion<Failure>) {
            let (valueHandler, completionHandler, status) = terminate()
            completionHandler?.call(completion)
            // Released here, outside the lock (with `consume`: `withExtendedLifetime`, generic,
            // would look up `Handler<Input>?`'s type metadata at run time on every completion).
            _ = consume valueHandler
            _ = consume status  // the subscription
        }

        /// Cancels the subscription and releases the closures.
        public func cancel() {
            let (valueHandler, completionHandler, status) = terminate()
            if case .subscribed(let subscription) = consume status { subscription.cancel() }
            _ = (valueHandler, completionHandler)  // released here, outside the lock
        }

        /// Moves to the terminal state, handing back the closures and the former status for the
        /// caller to use and release outside the lock.
        @inline(__always)
        private func terminate() -> (Handler<Input>?, Handler<Subscribers.Completion<Failure>>?, SubscriberStatus) {
            // The status is moved out (swapped), not copied: copying its subscription existential
            // is a call through a value witness and a reference count operation, on a path that
            // every cancel and completion takes.
            var status = SubscriberStatus.terminal
            lock.acquire()
            swap(&status, &self.status)
            let handlers = (valueHandler, completionHandler)
            valueHandler = nil
            completionHandler = nil
            lock.release()
            return (handlers.0, handlers.1, status)
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior.
    ///
    /// The subscriber requests an unlimited number of values as soon as it is subscribed.
    /// `receiveValue` runs for each value and `receiveCompletion` once at the end, each on the
    /// thread that delivers the event; a synchronous publisher has delivered everything
    /// before `sink` returns. Keep the returned `AnyCancellable`: when it is released, the
    /// subscription is cancelled. After the completion or a cancel, both closures are
    /// released, which breaks any reference cycle through what they capture.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.sink(
    ///     receiveCompletion: { print("done:", $0) },
    ///     receiveValue: { print($0) })
    /// // Prints: 1, 2, then done: finished
    /// ```
    ///
    /// - Parameters:
    ///   - receiveCompletion: The closure to run when the publisher finishes or fails.
    ///   - receiveValue: The closure to run with each value.
    /// - Returns: An `AnyCancellable` that cancels the subscription when cancelled or
    ///   deinitialized.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes to this publisher, which can't fail, and calls `receiveValue` with each value.
    ///
    /// The same as `sink(receiveCompletion:receiveValue:)` with nothing to do on completion:
    /// the subscriber requests an unlimited number of values and calls `receiveValue` with
    /// each. It is available only when `Failure` is `Never`, so that no failure goes unseen.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<String, Never>()
    /// let cancellable = subject.sink { print("got", $0) }
    /// subject.send("a")
    /// subject.send("b")
    /// // Prints: got a, got b
    /// ```
    ///
    /// - Parameter receiveValue: The closure to run with each value.
    /// - Returns: An `AnyCancellable` that cancels the subscription when cancelled or
    ///   deinitialized.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

/// The value closure of `subscriber` when it is a `sink`, for a subscription that delivers
/// one call at a time and stops delivering once cancelled: it may call the closure directly,
/// without the sink's lock and without retaining the closure per value. Folded away at
/// compile time for every other subscriber type.
///
/// Nothing observable changes: cancelling the sink cancels its subscription before returning
/// (so a sink cancelled from its own closure receives nothing more), and a value racing with
/// a cancel from another thread may arrive either way, as through the sink's own `receive`.
@inlinable
func sinkValueHandler<S: Subscriber>(of subscriber: S) -> ((S.Input) -> Void)? {
    guard let sink = subscriber as? Subscribers.Sink<S.Input, S.Failure> else { return nil }
    return sink.lock.withLock { sink.valueHandler?.call }
}
