/// Delivers one value and then `.finished` on the first request: the subscription of `Just`,
/// `Optional.Publisher`, a successful `Result.Publisher`, and a fulfilled `Future`.
///
/// `request` comes through the `Subscription` protocol, where the subscriber's type is
/// unknown; the delivery runs through `deliver`, a closure made in the (inlined,
/// specialised) initialiser.
@usableFromInline
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, @unchecked Sendable
{
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var downstream: Downstream?
    @usableFromInline @exclusivity(unchecked) var value: Downstream.Input?
    @usableFromInline let name: String
    @usableFromInline let deliver: (SingleValueSubscription) -> Void

    @inlinable
    init(value: Downstream.Input, downstream: Downstream, name: String) {
        self.value = value
        self.downstream = downstream
        self.name = name
        self.deliver = { $0.deliverOnce() }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var customMirror: Mirror { Mirror(self, children: ["value": value as Any]) }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        deliver(self)
    }

    @inlinable
    func deliverOnce() {
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

    @usableFromInline
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
