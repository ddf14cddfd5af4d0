// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension AnyPublisher {
    /// A publisher that runs `factory` for each subscriber, handing it a
    /// ``Publishers/Create/Subscriber`` to send values and a completion through.
    ///
    /// ![A marble diagram of create(_:), drawn from a run of it](marble-create)
    ///
    /// ```swift
    /// // factory sends: [ab|]      at once, on subscription
    /// // demand .max(1): a------   b and the finish wait for more demand
    /// let greetings = AnyPublisher<String, MyError>.create { subscriber in
    ///     subscriber.send("Hello")
    ///     subscriber.send("World!")
    ///     subscriber.send(completion: .finished)
    ///     return AnyCancellable { /* stop the work, release resources */ }
    /// }
    /// ```
    ///
    /// See ``Publishers/Create`` for the demand buffer, the completion and the clean-up.
    public static func create(
        _ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler
    ) -> AnyPublisher<Output, Failure> {
        AnyPublisher(factory)
    }

    /// Creates a type-erased ``Publishers/Create`` publisher; the same as
    /// ``create(_:)``.
    public init(_ factory: @escaping Publishers.Create<Output, Failure>.SubscriberHandler) {
        self = Publishers.Create(factory: factory).eraseToAnyPublisher()
    }
}

extension Publishers {
    /// A publisher driven by a closure: for each subscriber it runs the closure once, which
    /// sends values and a completion through the ``Subscriber`` it is given, at once or later,
    /// from any thread, and returns a cancellable that cleans up.
    ///
    /// ```
    /// factory: send(1) send(2) send(3) send(completion: .finished)
    /// demand:  .max(2) ....................... .max(1)
    /// out:     --1--2--------------------------3|
    /// ```
    ///
    /// - The closure runs when the subscriber has received its subscription (and requested
    ///   its first demand, if it does so there); a subscriber that cancels from inside
    ///   `receive(subscription:)` never gets the closure run.
    /// - Values sent beyond the subscriber's demand wait in a buffer and are delivered in
    ///   order as demand arrives. The completion waits behind the buffered values — a failure
    ///   too, so no value sent before it is lost (the choice of CombineExt's demand buffer).
    /// - The cancellable the closure returns is cancelled exactly once: when the closure sends
    ///   the completion or the subscriber cancels, whichever comes first (at once, if that
    ///   happened before the closure returned), and then released with everything it captures.
    /// - Sends after the completion or after cancellation are ignored. Sends from several
    ///   threads are serialised: the subscriber gets one call at a time, in the order the
    ///   sends were accepted, and no lock is held while it is called.
    public struct Create<Output, Failure: Error>: Publisher {
        /// The closure run for each subscriber: it receives the ``Subscriber`` to send
        /// through and returns what cleans up when the subscription ends.
        public typealias SubscriberHandler = (Subscriber) -> any Cancellable

        private let factory: SubscriberHandler

        /// Creates a publisher that runs `factory` for each subscriber.
        public init(factory: @escaping SubscriberHandler) {
            self.factory = factory
        }

        /// Attaches the specified subscriber to this publisher: hands it the subscription,
        /// then runs the closure.
        public func receive<S: Combine.Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let conduit = Conduit(downstream: subscriber)
            subscriber.receive(subscription: conduit)
            conduit.start(factory)
        }
    }
}

extension Publishers.Create {
    /// What the closure of a ``Publishers/Create`` publisher sends through. A value type that
    /// may be copied, kept and used from any thread; once the subscription has ended, its
    /// sends are ignored.
    public struct Subscriber: Sendable {
        fileprivate let inlet: Inlet

        /// Sends a value to the subscriber, or buffers it until the subscriber asks for it.
        public func send(_ input: Output) {
            inlet.send(input)
        }

        /// Sends the completion to the subscriber (after any buffered values) and ends the
        /// subscription; later sends are ignored.
        public func send(completion: Subscribers.Completion<Failure>) {
            inlet.send(completion: completion)
        }
    }

    /// The side of a subscription that the closure's ``Subscriber`` talks to, without
    /// knowing the subscriber's type.
    fileprivate class Inlet: @unchecked Sendable {
        func send(_ input: Output) {}
        func send(completion: Subscribers.Completion<Failure>) {}
    }

    /// The subscription: a demand buffer in front of the subscriber, and the clean-up the
    /// closure returned.
    fileprivate final class Conduit<Downstream: Combine.Subscriber>: Inlet, Subscription, CustomStringConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let delivery: DownstreamQueue<Downstream>
        private let lock = Lock()
        private var cleanup: (any Cancellable)?
        private var ended = false

        init(downstream: Downstream) {
            delivery = DownstreamQueue(downstream)
        }

        var description: String { "Create" }

        /// Runs the closure, unless the subscriber has already cancelled, and keeps its
        /// clean-up (or runs it at once if the subscription ended while the closure ran).
        func start(_ factory: SubscriberHandler) {
            guard delivery.isOpen else { return }
            let cancellable = factory(Subscriber(inlet: self))
            let endedAlready: Bool = lock.withLock {
                if !ended { cleanup = cancellable }
                return ended
            }
            if endedAlready { cancellable.cancel() }
        }

        override func send(_ input: Output) {
            delivery.send(input)
        }

        override func send(completion: Subscribers.Completion<Failure>) {
            guard delivery.enqueue(completion: completion) else { return }
            delivery.drain()
            end()
        }

        func request(_ demand: Subscribers.Demand) {
            delivery.request(demand)
        }

        func cancel() {
            delivery.cancel()
            end()
        }

        /// Cancels and releases the clean-up, once.
        private func end() {
            let cancellable: (any Cancellable)? = lock.withLock {
                ended = true
                defer { cleanup = nil }
                return cleanup
            }
            cancellable?.cancel()
        }
    }
}
