// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization

extension Subscribers {
    /// A subscriber that writes each value it receives into one property of an object, named
    /// by a key path.
    ///
    /// It requests an unlimited number of values and holds `object` strongly until it
    /// completes or is cancelled, then releases it.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        /// Only publishers that can't fail can be attached to this subscriber.
        public typealias Failure = Never

        private let lock = Lock()
        private var root: Root?
        private var subscription: Subscription?
        private var subscribed = false

        /// The object that contains the property to assign; `nil` once the subscriber has
        /// completed or been cancelled.
        public var object: Root? { lock.withLock { root } }

        /// The key path of the property each value is written to.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber that sets `object[keyPath: keyPath]` to every value it
        /// receives.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.root = object
            self.keyPath = keyPath
        }

        /// A textual description of the subscriber: "Assign" followed by the root type's name.
        public var description: String { "Assign \(Root.self)." }

        /// A mirror showing the object (`nil` once released), the key path and the status:
        /// awaiting its subscription, subscribed, or terminal.
        public var customMirror: Mirror {
            lock.acquire()
            let (root, subscription, subscribed) = (self.root, self.subscription, self.subscribed)
            lock.release()
            let status: String =
                if let subscription { "subscribed(\(subscription))" } else if subscribed || root == nil {
                    "terminal"
                } else {
                    "awaitingSubscription"
                }
            return Mirror(self, children: ["object": root as Any, "keyPath": keyPath, "status": status])
        }

        /// The description shown in a playground: the same as `description`.
        public var playgroundDescription: Any { description }

        /// Takes the subscription and requests an unlimited number of values.
        ///
        /// A second subscription, or one that arrives after the subscriber was cancelled or
        /// completed, is cancelled at once.
        ///
        /// - Parameter subscription: The subscription the publisher hands over.
        public func receive(subscription: Subscription) {
            let accepted: Bool = lock.withLock {
                guard !subscribed, root != nil else { return false }
                subscribed = true
                self.subscription = subscription
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value; as Apple's, a value before the subscription is ignored.
        ///
        /// The assignment is made on the thread that delivers the value.
        ///
        /// - Parameter value: The value to write to the object's property.
        /// - Returns: `.none`: the subscriber asked for everything at the start.
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.withLock { subscribed ? root : nil }?[keyPath: keyPath] = value
            return .none
        }

        /// Ends the subscription: the object and the subscription are released, and later
        /// values are ignored.
        ///
        /// - Parameter completion: The completion; it is always `.finished`, since `Failure` is
        ///   `Never`.
        public func receive(completion: Subscribers.Completion<Never>) {
            let released: (Root?, Subscription?) = lock.withLock {
                defer {
                    root = nil
                    subscription = nil
                }
                return (root, subscription)
            }
            withExtendedLifetime(released) {}
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            let (root, subscription): (Root?, Subscription?) = lock.withLock {
                defer {
                    self.root = nil
                    self.subscription = nil
                }
                return (self.root, self.subscription)
            }
            subscription?.cancel()
            withExtendedLifetime(root) {}
        }
    }
}

extension Publisher where Failure == Never {
    /// Subscribes to this publisher and writes every value into the property of `object` at
    /// `keyPath`.
    ///
    /// The subscriber requests an unlimited number of elements and writes each one to
    /// `object[keyPath: keyPath]` as it arrives, on the thread that delivers it. The object is
    /// held strongly until the publisher completes or the returned `AnyCancellable` is
    /// cancelled or released, so assigning to a property of the object that keeps the
    /// cancellable makes a reference cycle; for that case, assign to a `@Published` property
    /// with `assign(to:)` instead.
    ///
    /// ```swift
    /// final class Label { var text = "" }
    ///
    /// let label = Label()
    /// let cancellable = ["Loading", "Done"].publisher.assign(to: \.text, on: label)
    /// print(label.text)
    /// // Prints: Done
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: A writable key path to the property to assign, of the publisher's
    ///     `Output` type.
    ///   - object: The object that holds the property.
    /// - Returns: An `AnyCancellable` that cancels the subscription and releases `object`
    ///   when cancelled or deinitialized.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let assign = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(assign)
        return AnyCancellable(object: assign)
    }
}
