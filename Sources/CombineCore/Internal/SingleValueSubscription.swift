/// Delivers one value and then `.finished` on the first request: the subscription of `Just`,
/// `Optional.Publisher` and a successful `Result.Publisher`.
///
/// The class is not generic: the subscriber and the value live in the delivery closure, made
/// in the (inlined, specialised) initialiser. `request` comes through the `Subscription`
/// protocol, where the subscriber's type is unknown, and the object is destroyed the same way;
/// a generic class would have to look up the metadata of its `Optional<Value>` and
/// `Optional<Subscriber>` fields each time (measured: half the cost of `Just(x).sink`), while
/// a closure context is destroyed by code specialised for what it captured.
@usableFromInline
final class SingleValueSubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    enum Action {
        /// Send the value and `.finished`.
        case deliver
        /// Return the value, for the mirror.
        case reflect
    }

    @usableFromInline let lock = Lock()
    /// Does the `Action`; `nil` once used or cancelled. One closure serves both, so the
    /// value is not boxed unless the mirror is asked for.
    @usableFromInline @exclusivity(unchecked) var deliver: ((Action) -> Any?)?
    @usableFromInline let name: String

    @inlinable
    init<Downstream: Subscriber>(value: Downstream.Input, downstream: Downstream, name: String) {
        self.name = name
        self.deliver = { action in
            switch action {
            case .reflect:
                return value
            case .deliver:
                _ = downstream.receive(value)
                downstream.receive(completion: .finished)
                return nil
            }
        }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var playgroundDescription: Any { name }

    /// As Apple's: one unlabelled child, the value (none once it was sent or cancelled).
    @usableFromInline
    var customMirror: Mirror {
        let value = lock.withLock { deliver }?(.reflect)
        return Mirror(self, unlabeledChildren: value.map { [$0] } ?? [])
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.acquire()
        let deliver = self.deliver
        self.deliver = nil
        lock.release()
        _ = deliver?(.deliver)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        let deliver = self.deliver
        self.deliver = nil
        lock.release()
        _ = deliver  // the subscriber and the value are released here, outside the lock
    }
}
