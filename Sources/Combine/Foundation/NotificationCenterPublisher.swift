// SPDX-License-Identifier: Apache-2.0
// Built where the platform has it: the rest of the module needs neither Foundation nor Dispatch.
#if canImport(Foundation)
import CombineSynchronization
import Foundation
import Synchronization

extension NotificationCenter {
    /// Returns a publisher that emits events when broadcasting notifications.
    ///
    /// ```swift
    /// let cancellable = NotificationCenter.default
    ///     .publisher(for: .NSCalendarDayChanged)
    ///     .sink { note in print("a new day:", note.name.rawValue) }
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher emits
    ///     elements for any object producing a notification with the given name.
    /// - Returns: A publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscription registers an observer with ``center`` as soon as it is made, and
    /// removes it when cancelled. A notification reaches the subscriber on the thread that
    /// posted it, if the subscriber has outstanding demand; a notification posted while the
    /// subscriber has none is dropped, not buffered. Notifications may be posted from any
    /// thread: calls into one subscriber never overlap (one posted while another thread is
    /// delivering is handed to the subscriber by that thread, after its current call).
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// let cancellable = NotificationCenter.Publisher(center: center, name: .init("saved"))
    ///     .map(\.object)
    ///     .sink { print("saved:", $0 ?? "nothing") }
    /// center.post(name: .init("saved"), object: "draft.txt" as NSString)  // saved: draft.txt
    /// cancellable.cancel()   // the observer is removed: later posts reach nobody
    /// ```
    ///
    /// The publisher never completes.
    public struct Publisher: Combine.Publisher {
        /// The type of values this publisher emits: each matching notification as it is posted.
        public typealias Output = Notification

        /// The kind of errors this publisher might publish: it never fails.
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter

        /// The name of notifications published by this publisher.
        public let name: Notification.Name

        /// The object posting the named notification; `nil` for any object.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        ///
        /// ```swift
        /// let didSave = NotificationCenter.Publisher(center: .default, name: .init("saved"), object: document)
        /// ```
        ///
        /// - Parameters:
        ///   - center: The notification center to publish notifications for.
        ///   - name: The name of the notification to publish.
        ///   - object: The object posting the named notification. If `nil`, the publisher emits
        ///     elements for any object producing a notification with the given name.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Registers an observer for `subscriber` with the center and hands it its subscription.
        ///
        /// - Parameter subscriber: The subscriber that receives the matching notifications.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            NotificationSubscription(downstream: subscriber, center: center, name: name, object: object).start()
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Whether two publishers observe the same center, name and object: the center and the
    /// object are compared by identity, the name by value.
    ///
    /// ```swift
    /// let center = NotificationCenter()
    /// center.publisher(for: .init("saved")) == center.publisher(for: .init("saved"))   // true
    /// ```
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

/// A subscription to a notification center publisher: one observer registered with the center
/// for as long as the subscription lasts.
///
/// The observer sends each notification into a `PassthroughSubject` private to this
/// subscription; the subject's delivery does the rest — demand, dropping a notification that
/// finds no demand, and serialising posts from several threads without a lock held while the
/// subscriber runs. This class stands between that subject and the subscriber, so that
/// cancelling also removes the observer.
///
/// `@unchecked Sendable`: `downstream`, `delivery` and `observer` are read and written only
/// under `lock`; nothing is called while it is held.
/// What the observer's block sends a notification to: the subscription's subject, handed to
/// the posting threads through an atomic flag.
///
/// The block reaches a posting thread through the notification center, whose own lock orders
/// the relay's making before any post that finds the block; but that lock hands over inside
/// the standard library's compiled code, which ThreadSanitizer does not see, so the sanitizer
/// took the subject's first use on a posting thread for a race with its making. The flag makes
/// the order one the sanitizer sees, for the price of one acquiring load per notification.
private final class NotificationRelay: @unchecked Sendable {
    /// Thread-safe, though not declared `Sendable` (as Apple's subjects are not).
    let subject = PassthroughSubject<Notification, Never>()
    private let made = Atomic<Bool>(false)

    init() {
        made.store(true, ordering: .releasing)
    }

    func send(_ notification: Notification) {
        // Always true: the relay is made before the block is registered.
        guard made.load(ordering: .acquiring) else { return }
        subject.send(notification)
    }
}

private final class NotificationSubscription<Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    typealias Input = Notification
    typealias Failure = Never

    private let lock = Lock()
    private var downstream: Downstream?
    /// The subject's subscription, through which demand and cancellation go.
    private var delivery: Subscription?
    private var observer: NSObjectProtocol?
    private let center: NotificationCenter
    private let name: Notification.Name
    private let object: AnyObject?

    init(downstream: Downstream, center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
        self.downstream = downstream
        self.center = center
        self.name = name
        self.object = object
    }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        Mirror(self, children: ["center": center, "name": name, "object": object as Any])
    }

    /// Registers the observer, then subscribes to the subject, which hands its subscription to
    /// ``receive(subscription:)`` and from there to the subscriber.
    func start() {
        let relay = NotificationRelay()
        let observer = center.addObserver(forName: name, object: object, queue: nil) { relay.send($0) }
        lock.withLock { self.observer = observer }
        relay.subject.subscribe(self)
    }

    // MARK: Subscriber of the subject

    func receive(subscription: Subscription) {
        let downstream: Downstream? = lock.withLock {
            delivery = subscription
            return self.downstream
        }
        // Called inside the subject's delivery of the subscription: a notification posted on
        // another thread meanwhile waits until the subscriber has its subscription.
        downstream?.receive(subscription: self)
    }

    func receive(_ notification: Notification) -> Subscribers.Demand {
        let downstream: Downstream? = lock.withLock { self.downstream }
        return downstream?.receive(notification) ?? .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    // MARK: Subscription

    /// Adds to the subscriber's demand. Asking for `.none` adds nothing and does not trap, as
    /// with Apple's notification subscription.
    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let delivery: Subscription? = lock.withLock { self.delivery }
        delivery?.request(demand)
    }

    func cancel() {
        lock.acquire()
        let downstream = self.downstream.take()
        let delivery = self.delivery.take()
        let observer = self.observer.take()
        lock.release()
        if let observer { center.removeObserver(observer) }
        delivery?.cancel()
        withExtendedLifetime(downstream) {}  // released here, outside the lock
    }
}
#endif
