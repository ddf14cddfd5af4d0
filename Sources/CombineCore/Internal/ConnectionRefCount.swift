/// Connects on the first subscriber and disconnects when the last one leaves (cancels or
/// completes): the logic of `autoconnect()` and `share()`.
final class ConnectionRefCount<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var subscribers = 0
    private var connection: Cancellable?
    /// Makes the shared publisher for a new cycle and connects it.
    private let connect: () -> Cancellable

    init(connect: @escaping () -> Cancellable) {
        self.connect = connect
    }

    /// Subscribes `subscriber` to `publisher` (the shared side), connecting first if it is the
    /// first subscriber of a cycle.
    func attach<P: Publisher, S: Subscriber>(_ subscriber: S, to publisher: P, name: String)
    where P.Output == Output, P.Failure == Failure, S.Input == Output, S.Failure == Failure {
        let callbacks = EventCallbacks<Output, Failure>(
            completion: { [self] _ in left(disconnect: false) },
            cancel: { [self] in left(disconnect: true) })
        let first: Bool = lock.withLock {
            subscribers += 1
            return subscribers == 1
        }
        publisher.subscribe(
            EventHandlingSubscription(
                downstream: subscriber, callbacks: callbacks, name: name, reportsAfterEnd: false,
                takesSubscriptionAfterEarlyCancel: false))
        if first {
            let connection = connect()
            let stale: Bool = lock.withLock {
                guard subscribers > 0, self.connection == nil else { return true }
                self.connection = connection
                return false
            }
            if stale { connection.cancel() }
        }
    }

    private func left(disconnect: Bool) {
        let connection: Cancellable? = lock.withLock {
            subscribers -= 1
            guard subscribers == 0 else { return nil }
            defer { self.connection = nil }
            return self.connection
        }
        if disconnect { connection?.cancel() }
    }
}
