extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// A strategy to fill the buffer at subscription time, and keep it full thereafter.
        case keepFull

        /// A strategy that avoids prefetching and instead performs requests on demand.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer’s capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest

        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest

        /// When the buffer is full, execute the closure to provide a custom error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    ///
    /// ```
    /// upstream:                       --1--2--3--4--|
    /// buffer(size: 2, .keepFull, .dropNewest), subscriber asking later for 3:
    ///                                  1, 2, 4
    /// ```
    ///
    /// With `.keepFull` it asks upstream for `size` elements at once and for one more each
    /// time one is delivered; with `.byRequest` it asks for everything once the subscriber
    /// first asks. Elements wait in the buffer until the subscriber has demand; when it is
    /// full, `whenFull` decides.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of elements to store.
        public let size: Int

        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy

        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Creates a publisher that buffers elements received from an upstream publisher.
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Publishers.Buffer<Upstream>.Failure>
        ) {
            precondition(size > 0, "buffer(size:prefetch:whenFull:): the size must be greater than zero")
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches the specified subscriber to this publisher.
        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let buffer = BufferSubscription(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull)
            buffer.start()
            upstream.subscribe(buffer.child)
        }
    }
}

/// The subscription of `buffer`: a ``FanIn`` queue bounded by the buffer size.
private final class BufferSubscription<Downstream: Subscriber>: FanIn<Downstream>, @unchecked Sendable {
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private let whenFull: Publishers.BufferingStrategy<Downstream.Failure>
    private var upstream: Subscription?
    private var requestedUpstream = false

    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Downstream.Failure>
    ) {
        self.size = size
        self.prefetch = prefetch
        self.whenFull = whenFull
        super.init(downstream: downstream, name: "Buffer")
    }

    var child: Child { Child(owner: self) }

    override func didRequest(_ demand: Subscribers.Demand) {
        guard prefetch == .byRequest else { return }
        let upstream: Subscription? = lock.withLock {
            guard !requestedUpstream else { return nil }
            requestedUpstream = true
            return self.upstream
        }
        upstream?.request(.unlimited)
    }

    override func didDeliver(_ additionalDemand: Subscribers.Demand) {
        guard prefetch == .keepFull else { return }
        lock.withLock { upstream }?.request(.max(1))
    }

    override func cancelUpstreams() {
        let upstream: Subscription? = lock.withLock {
            defer { self.upstream = nil }
            return self.upstream
        }
        upstream?.cancel()
    }

    fileprivate func upstreamSubscribed(_ subscription: Subscription) {
        let request: Subscribers.Demand?? = lock.withLock {
            guard !isTerminated, upstream == nil else { return nil }
            upstream = subscription
            switch prefetch {
            case .keepFull: return .some(.max(size))
            case .byRequest: return .some(requestedUpstream ? .unlimited : nil)
            }
        }
        guard let request else {
            subscription.cancel()
            return
        }
        if let demand = request { subscription.request(demand) }
    }

    fileprivate func upstreamValue(_ value: Downstream.Input) {
        // The oldest value dropped to make room, released after the lock.
        var dropped: Downstream.Input?
        // `true`: the buffer is full and fails with the custom error, made after the lock.
        let overflowed: Bool = lock.withLock {
            guard !isTerminated else { return false }
            if queuedCountLocked >= size && unqueuedDemandLocked == .none {
                switch whenFull {
                case .dropNewest:
                    return false
                case .dropOldest:
                    dropped = dropOldestLocked()
                case .customError:
                    return true
                }
            }
            enqueueLocked(value)
            return false
        }
        _ = dropped
        if overflowed, case .customError(let makeError) = whenFull {
            let error = makeError()
            let failed = lock.withLock { finishLocked(.failure(error)) }
            if failed { cancelUpstreams() }
        }
        drain()
    }

    fileprivate func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let upstream: Subscription? = lock.withLock {
            finishLocked(completion)
            return self.upstream.take()
        }
        _ = upstream  // released here, outside the lock
        drain()
    }

    struct Child: Subscriber, CustomStringConvertible {
        typealias Input = Downstream.Input
        typealias Failure = Downstream.Failure

        let owner: BufferSubscription
        let combineIdentifier = CombineIdentifier()
        var description: String { "Buffer" }

        func receive(subscription: Subscription) { owner.upstreamSubscribed(subscription) }

        func receive(_ input: Downstream.Input) -> Subscribers.Demand {
            owner.upstreamValue(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Downstream.Failure>) { owner.upstreamCompleted(completion) }
    }
}

extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// ```swift
    /// events.buffer(size: 100, prefetch: .keepFull, whenFull: .dropOldest)
    /// ```
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}
