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

    /// A connectable publisher over a passthrough subject: nothing flows until
    /// ``connect()``.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher, attached to the provided upstream publisher.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream) { PassthroughSubject() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            inner.receive(subscriber: subscriber)
        }

        /// Subscribes to the upstream; cancel the result to disconnect.
        public func connect() -> Cancellable {
            inner.connect()
        }
    }

    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// The first subscriber connects it; when every subscriber has cancelled, the connection
    /// is cancelled too, and the next subscriber connects again. As Apple's, a subscriber that
    /// received the completion still counts until it cancels.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        private let refCount: ConnectionRefCount<Output, Failure>

        /// Creates a publisher that automatically connects to an upstream connectable
        /// publisher.
        public init(upstream: Upstream) {
            self.upstream = upstream
            refCount = ConnectionRefCount { upstream.connect() }
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            refCount.attach(subscriber, to: upstream, parent: self)
        }
    }

    /// A publisher that shares the output of an upstream publisher with multiple
    /// subscribers.
    ///
    /// ```swift
    /// let shared = expensiveRequest.share()
    /// shared.sink { ... }   // subscribes upstream once
    /// shared.sink { ... }   // shares that subscription
    /// ```
    ///
    /// The first subscriber subscribes upstream; later ones share that subscription and
    /// receive the values published after they joined. As Apple's: once the upstream has
    /// completed, a later subscriber receives only the completion (the upstream is not
    /// subscribed again, so `Deferred { Future { ... } }.share()` does its work once); once
    /// every subscriber has cancelled, the next subscriber subscribes upstream again.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        /// Apple's composition: one subject for the publisher's life, connected by
        /// `autoconnect`. Once the upstream has completed, a later subscriber receives the
        /// completion and does not subscribe upstream again; once every subscriber has
        /// cancelled, the next one does.
        private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Upstream.Output, Upstream.Failure>>>

        /// Creates a publisher that shares the output of `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            self.inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            inner.subscribe(subscriber)
        }

        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publishers.MakeConnectable: @unchecked Sendable where Upstream: Sendable {}

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

    /// Shares the output of an upstream publisher with multiple subscribers.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publisher where Failure == Never {
    /// Creates a connectable wrapper around the publisher.
    ///
    /// Subscribers attach first; values flow only after `connect()`:
    ///
    /// ```swift
    /// let connectable = [1, 2, 3].publisher.makeConnectable()
    /// connectable.sink { print("a", $0) }.store(in: &bag)
    /// connectable.sink { print("b", $0) }.store(in: &bag)
    /// connectable.connect().store(in: &bag)   // a 1, b 1, a 2, b 2, a 3, b 3
    /// ```
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    ///
    /// The first subscriber connects; when the last one cancels, the connection is cancelled:
    ///
    /// ```swift
    /// Timer.publish(every: 1, on: .main, in: .default)
    ///     .autoconnect()
    ///     .sink { print($0) }
    /// ```
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
