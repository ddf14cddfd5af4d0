/// Delivers one value and then `.finished` on the first request: the subscription of `Just`,
/// `Optional.Publisher`, a successful `Result.Publisher`, and a fulfilled `Future`.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, @unchecked Sendable
{
    private let lock = Lock()
    private var downstream: Downstream?
    private var value: Downstream.Input?
    private let name: String

    init(value: Downstream.Input, downstream: Downstream, name: String) {
        self.value = value
        self.downstream = downstream
        self.name = name
    }

    var description: String { name }

    var customMirror: Mirror { Mirror(self, children: ["value": value as Any]) }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        let taken: (Downstream, Downstream.Input)? = lock.withLock {
            guard let downstream, let value else { return nil }
            self.downstream = nil
            self.value = nil
            return (downstream, value)
        }
        guard let (downstream, value) = taken else { return }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        let released: (Downstream?, Downstream.Input?) = lock.withLock {
            defer {
                downstream = nil
                value = nil
            }
            return (downstream, value)
        }
        // Released here, outside the lock: a deinit may call back in.
        _ = released
    }
}
