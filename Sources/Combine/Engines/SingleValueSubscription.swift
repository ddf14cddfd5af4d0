// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

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
    @usableFromInline let lock = Lock()
    /// Sends the value and `.finished` when called with `nil`; given a pointer, stores the
    /// value there instead (for the mirror). `nil` once used or cancelled. One closure serves
    /// both, so the value is boxed only when the mirror is asked for.
    @usableFromInline @exclusivity(unchecked) var deliver: ((UnsafeMutablePointer<Any?>?) -> Void)?
    @usableFromInline let name: String

    @inlinable
    init<Downstream: Subscriber>(value: Downstream.Input, downstream: Downstream, name: String) {
        self.name = name
        self.deliver = { reflection in
            if let reflection {
                reflection.pointee = value
                return
            }
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        }
    }

    @usableFromInline
    var description: String { name }

    @usableFromInline
    var playgroundDescription: Any { name }

    /// As Apple's: one unlabelled child, the value (none once it was sent or cancelled).
    @usableFromInline
    var customMirror: Mirror {
        var value: Any?
        if let deliver = lock.withLock({ deliver }) { withUnsafeMutablePointer(to: &value) { deliver($0) } }
        return Mirror(self, unlabeledChildren: value.map { [$0] } ?? [])
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.acquire()
        let deliver = self.deliver
        self.deliver = nil
        lock.release()
        deliver?(nil)
    }

    @usableFromInline
    func cancel() {
        lock.acquire()
        let deliver = self.deliver
        self.deliver = nil
        lock.release()
        withExtendedLifetime(deliver) {}  // the subscriber and the value are released here, outside the lock
    }
}
