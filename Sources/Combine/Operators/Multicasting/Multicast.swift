// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Publishers {
    /// A connectable publisher that relays one subscription to its upstream to many
    /// subscribers, through a subject.
    ///
    /// Subscribers attach to the subject; nothing flows until ``connect()`` subscribes the
    /// subject to the upstream. The subject is created once, by `createSubject`, on first
    /// use.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        /// The type of values this publisher emits, the same as the upstream's.
        public typealias Output = Upstream.Output
        /// The type of error this publisher fails with, the same as the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher the subject is subscribed to on ``connect()``.
        public let upstream: Upstream

        /// The closure that creates the subject. It is called once, when the subject is first
        /// needed (by the first subscriber or by `connect()`); every subscriber and every
        /// connection then use that same subject.
        public let createSubject: () -> SubjectType

        private let lock = Lock()
        private var createdSubject: SubjectType?

        /// Creates a connectable publisher that relays `upstream` through the subject that
        /// `createSubject` makes when it is first needed.
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
    /// Returns a connectable publisher that shares one subscription to this publisher among
    /// its subscribers, through a subject made by `createSubject`.
    ///
    /// ![A marble diagram of multicast(_:), drawn from a run of it](marble-multicast)
    ///
    /// The result is a connectable publisher: subscribers attach to the subject, and
    /// nothing is asked of this publisher until `connect()` subscribes the subject to it.
    /// Every subscriber then shares that one subscription, as when one network request
    /// feeds several parts of a screen
    /// (`request.multicast { PassthroughSubject<Data, URLError>() }`).
    ///
    /// ```swift
    /// let multicast = [1, 2, 3].publisher
    ///     .multicast { PassthroughSubject<Int, Never>() }
    /// let first = multicast.sink { print("first", $0) }
    /// let second = multicast.sink { print("second", $0) }
    /// let connection = multicast.connect()
    /// // Prints: first 1, second 1, first 2, second 2, first 3, second 3
    /// ```
    ///
    /// `createSubject` is called once, when the subject is first needed, not once per
    /// subscriber. Demand is the subject's: Combine's subjects ask the upstream for
    /// unlimited values (a `PassthroughSubject` once a subscriber has asked for some), and a
    /// `PassthroughSubject` drops a value for a subscriber without outstanding demand. With
    /// these subjects, a subscriber that attaches after the upstream has completed receives
    /// the completion at once.
    ///
    /// - Parameter createSubject: A closure that creates the subject through which values
    ///   are delivered to the subscribers.
    /// - Returns: A ``Publishers/Multicast`` connectable publisher that delivers this
    ///   publisher's values through the subject.
    public func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Returns a connectable publisher that shares one subscription to this publisher among
    /// its subscribers, through `subject`.
    ///
    /// ![A marble diagram of multicast(subject:), drawn from a run of it](marble-multicast-subject)
    ///
    /// Like `multicast(_:)`, with a subject you create yourself, for instance a
    /// `CurrentValueSubject` so that a subscriber attaching late still receives the latest
    /// value:
    ///
    /// ```swift
    /// let subject = CurrentValueSubject<Int, Never>(0)
    /// let multicast = [1, 2].publisher.multicast(subject: subject)
    /// let early = multicast.sink { print("early", $0) }   // Prints: early 0
    /// let connection = multicast.connect()               // Prints: early 1, early 2
    /// ```
    ///
    /// Nothing is asked of this publisher until `connect()` subscribes the subject to it.
    /// Values you send to the subject yourself reach the subscribers too.
    ///
    /// - Parameter subject: The subject through which values are delivered to the
    ///   subscribers.
    /// - Returns: A ``Publishers/Multicast`` connectable publisher that delivers this
    ///   publisher's values through `subject`.
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where Failure == S.Failure, Output == S.Output {
        Publishers.Multicast(upstream: self) { subject }
    }
}
