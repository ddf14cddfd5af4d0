// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

/// The storage of one `@Published` property: its value, the subject its subscribers are
/// attached to, the object's `objectWillChange` once connected, and the upstream
/// subscriptions of `assign(to:)`, which it cancels when it goes away with its object.
///
/// Reads and writes are `@inlinable`, so that setting a property runs code specialised for its
/// value type (unspecialised, the subject's delivery looked up type metadata on every set).
@usableFromInline
final class PublishedBox<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    @usableFromInline @exclusivity(unchecked) var stored: Value
    @usableFromInline @exclusivity(unchecked) var objectWillChange: ObservableObjectPublisher?
    private var upstreams: [CombineIdentifier: Subscription] = [:]
    /// Holds the latest published value for subscribers arriving later.
    @usableFromInline let subject: SubjectCore<Value, Never>

    init(_ value: Value) {
        stored = value
        subject = SubjectCore(current: value, kind: .published)
    }

    deinit {
        for upstream in upstreams.values {
            upstream.cancel()
        }
    }

    /// The value the property holds.
    @inlinable
    var value: Value { lock.withLock { stored } }

    /// Signals `objectWillChange`, sends `newValue` to the subscribers, then stores it.
    @inlinable
    func publish(_ newValue: Value) {
        let objectWillChange = lock.withLock { self.objectWillChange }
        objectWillChange?.send()
        subject.send(newValue)
        var replaced = newValue
        lock.withLock { swap(&stored, &replaced) }
        withExtendedLifetime(replaced) {}  // the previous value, released here, outside the lock
    }

    func connectObjectWillChange(_ candidate: ObservableObjectPublisher?) -> ObservableObjectPublisher {
        lock.withLock {
            if let objectWillChange { return objectWillChange }
            let connected = candidate ?? ObservableObjectPublisher()
            objectWillChange = connected
            return connected
        }
    }

    /// Keeps an `assign(to:)` upstream until it completes or this box goes away.
    func attach(_ subscription: Subscription, for subscriber: CombineIdentifier) {
        lock.withLock { upstreams[subscriber] = subscription }
        subscription.request(.unlimited)
    }

    func detach(_ subscriber: CombineIdentifier) {
        _ = lock.withLock { upstreams.removeValue(forKey: subscriber) }  // released here, outside the lock
    }
}
