/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure runs as soon as the future is created (wrap it in ``Deferred`` to run it per
/// subscription). The one result goes to every subscriber, including those that subscribe
/// after it arrived:
///
/// ```swift
/// let future = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// future.sink { print($0) }   // 42, whenever it is ready
/// ```
///
/// The promise may be called from any thread; only its first call counts. A value is
/// delivered once the subscriber has requested one; a failure is delivered at once.
///
/// `Promise` is `@Sendable` here so that Swift 6 code can fulfil it from another thread
/// or task; everything that passes a promise on as a plain closure still compiles.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// A type that represents a closure to invoke in the future, when an element or error
    /// is available.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private let lock = Lock()
    private var result: Result<Output, Failure>?
    private var waiting: [FutureConduitBase<Output, Failure>] = []

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    ///
    /// - Parameter attemptToFulfill: Runs at once with the promise to call with the result.
    public init(_ attemptToFulfill: @escaping (@escaping Future<Output, Failure>.Promise) -> Void) {
        attemptToFulfill { [self] result in fulfill(result) }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        let waiting: [FutureConduitBase<Output, Failure>]? = lock.withLock {
            guard self.result == nil else { return nil }
            self.result = result
            defer { self.waiting = [] }
            return self.waiting
        }
        for conduit in waiting ?? [] {
            conduit.fulfill(result)
        }
    }

    fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        lock.withLock {
            waiting.removeAll { $0 === conduit }
        }
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = FutureConduit(future: self, downstream: subscriber)
        let known: Result<Output, Failure>? = lock.withLock {
            if result == nil { waiting.append(conduit) }
            return result
        }
        subscriber.receive(subscription: conduit)
        if let known { conduit.fulfill(known) }
        conduit.subscriptionDelivered()
    }
}

class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
    func fulfill(_ result: Result<Output, Failure>) { fatalError("abstract") }
}

private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, @unchecked Sendable
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var future: Future<Output, Failure>?
    private var downstream: Downstream?
    private var result: Result<Output, Failure>?
    private var requested = false
    private var subscribed = false

    init(future: Future<Output, Failure>, downstream: Downstream) {
        self.future = future
        self.downstream = downstream
    }

    var description: String { "Future" }

    override func fulfill(_ result: Result<Output, Failure>) {
        lock.withLock { self.result = result }
        deliverIfReady()
    }

    func subscriptionDelivered() {
        lock.withLock { subscribed = true }
        deliverIfReady()
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.withLock { requested = true }
        deliverIfReady()
    }

    private func deliverIfReady() {
        // The future, when this was its last reference, is released after the lock.
        var future: Future<Output, Failure>?
        let ready: (Downstream, Result<Output, Failure>)? = lock.withLock {
            guard subscribed, let downstream, let result else { return nil }
            if case .success = result, !requested { return nil }
            self.downstream = nil
            future = self.future.take()
            return (downstream, result)
        }
        _ = future
        guard let (downstream, result) = ready else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }

    func cancel() {
        let released: (Future<Output, Failure>?, Downstream?) = lock.withLock {
            defer {
                future = nil
                downstream = nil
            }
            return (future, downstream)
        }
        released.0?.remove(self)
    }
}
