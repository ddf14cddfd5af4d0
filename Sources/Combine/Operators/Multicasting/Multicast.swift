import CombineSynchronization

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject; nothing flows until ``connect()`` subscribes the
    /// subject to the upstream. The subject is created once, by `createSubject`, on first
    /// use.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher, @unchecked Sendable
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure to create a new Subject each time a subscriber attaches to the multicast
        /// publisher.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        private var createdSubject: SubjectType?

        /// Creates a multicast publisher that applies a closure to create a subject that
        /// delivers elements to subscribers.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        private var subject: SubjectType {
            if let existing = lock.withLock({ createdSubject }) { return existing }
            let made = createSubject()
            return lock.withLock {
                if let existing = createdSubject { return existing }
                createdSubject = made
                return made
            }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where SubjectType.Failure == S.Failure, SubjectType.Output == S.Input {
            subject.subscribe(RelaySubscription(downstream: subscriber, step: MulticastStep<S.Input>()))
        }

        /// Subscribes the subject to the upstream; cancel the result to disconnect.
        public func connect() -> Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    ///
    /// ```swift
    /// let multicast = request.multicast { PassthroughSubject<Data, URLError>() }
    /// multicast.sink { first($0) }.store(in: &bag)
    /// multicast.sink { second($0) }.store(in: &bag)
    /// multicast.connect().store(in: &bag)   // one upstream subscription for both
    /// ```
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    ///
    /// ```swift
    /// let subject = CurrentValueSubject<Int, Never>(0)
    /// let multicast = numbers.multicast(subject: subject)   // late subscribers see the latest
    /// let connection = multicast.connect()
    /// ```
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self) { subject }
    }
}
