// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// A publisher that resolves once, to a value followed by `.finished` or to a failure.
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
/// As in Apple's declaration, neither `Future` nor its `Promise` is `Sendable`: Swift 6 code
/// that fulfils the promise from another task wraps it in a box of its own (see the
/// "Differences from Apple's Combine" article).
public final class Future<Output, Failure: Error>: Publisher {
    /// The closure the future's body calls with the result, a value or an error; only the
    /// first call counts.
    public typealias Promise = (Result<Output, Failure>) -> Void

    private let lock = Lock()
    private var result: Result<Output, Failure>?
    /// The subscribers waiting for the result, in subscription order: a doubly linked list
    /// through the conduits, so that a cancelled one leaves in constant time.
    private var firstWaiting: FutureConduitBase<Output, Failure>?
    private var lastWaiting: FutureConduitBase<Output, Failure>?

    /// Creates a future and runs `attemptToFulfill` right away, handing it the promise that
    /// resolves the future.
    ///
    /// - Parameter attemptToFulfill: Runs at once with the promise to call with the result.
    public init(_ attemptToFulfill: @escaping (@escaping Future<Output, Failure>.Promise) -> Void) {
        attemptToFulfill { [self] result in fulfill(result) }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        let first: FutureConduitBase<Output, Failure>? = lock.withLock {
            guard self.result == nil else { return nil }
            self.result = result
            defer { lastWaiting = nil }
            return firstWaiting.take()
        }
        // The list is this thread's alone now: walk it, unlinking as it goes, so that each
        // conduit is released after its delivery.
        var next = first
        while let conduit = next {
            next = conduit.nextWaiting.take()
            conduit.previousWaiting = nil
            conduit.fulfill(result)
        }
    }

    /// Removes a cancelled subscriber's conduit from the waiting list, if it is still there.
    fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
        lock.acquire()
        // Once the result is in, the list belongs to the thread delivering it.
        guard result == nil, conduit.isWaiting else {
            lock.release()
            return
        }
        conduit.isWaiting = false
        let previous = conduit.previousWaiting.take()
        let next = conduit.nextWaiting.take()
        if let previous { previous.nextWaiting = next } else { firstWaiting = next }
        if let next { next.previousWaiting = previous } else { lastWaiting = previous }
        lock.release()
    }

    private func appendWaitingLocked(_ conduit: FutureConduitBase<Output, Failure>) {
        conduit.isWaiting = true
        conduit.previousWaiting = lastWaiting
        if let lastWaiting { lastWaiting.nextWaiting = conduit } else { firstWaiting = conduit }
        lastWaiting = conduit
    }

    /// Attaches the specified subscriber to this publisher.
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        let conduit = FutureConduit(future: self, downstream: subscriber)
        let known: Result<Output, Failure>? = lock.withLock {
            if result == nil { appendWaitingLocked(conduit) }
            return result
        }
        subscriber.receive(subscription: conduit)
        if let known { conduit.fulfill(known) }
        conduit.subscriptionDelivered()
    }
}

class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
    // The future's waiting list, guarded by the future's lock until the result arrives. The
    // list owns each conduit through its predecessor's `nextWaiting` (the first through the
    // future), so the backward link need not retain.
    fileprivate var isWaiting = false
    fileprivate var nextWaiting: FutureConduitBase?
    fileprivate unowned(unsafe) var previousWaiting: FutureConduitBase?

    func fulfill(_ result: Result<Output, Failure>) { fatalError("abstract") }
}

private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<Downstream.Input, Downstream.Failure>,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
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
    var playgroundDescription: Any { description }

    /// As Apple's: the future (as `parent` and `subject`), the subscriber and whether it has
    /// asked for anything; the first two are `nil` once the subscription has ended.
    var customMirror: Mirror {
        lock.acquire()
        let (future, downstream, requested) = (self.future, self.downstream, self.requested)
        lock.release()
        let children: [Mirror.Child] = [
            ("parent", future as Any), ("downstream", downstream.map { $0 as Any } ?? Optional<Any>.none as Any),
            ("hasAnyDemand", requested), ("subject", future as Any),
        ]
        return Mirror(self, children: children)
    }

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
        withExtendedLifetime(future) {}
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
