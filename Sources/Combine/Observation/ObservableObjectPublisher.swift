// SPDX-License-Identifier: Apache-2.0
/// A publisher of payload-free signals that an observable object is about to change.
///
/// It is the default type of ``ObservableObject/objectWillChange-5gopl``: every
/// `@Published` property of the object calls ``send()`` on it before the property's value
/// changes. Call ``send()`` yourself to announce a change to state that is not published.
///
/// ```swift
/// final class Counter: ObservableObject {
///     private(set) var count = 0 {
///         willSet { objectWillChange.send() }
///     }
///     func increment() { count += 1 }
/// }
///
/// let counter = Counter()
/// let cancellable = counter.objectWillChange.sink { print("will change from", counter.count) }
/// counter.increment()   // prints "will change from 0"
/// ```
///
/// A subscriber receives only the signals sent after it subscribed and after its first
/// request: as Apple's, demand is not counted — any request lets every later signal through.
/// The publisher never completes. All methods may be called from any thread.
public final class ObservableObjectPublisher: Publisher {
    /// The kind of values published by this publisher: a signal with no payload.
    public typealias Output = Void

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    private let core = SubjectCore<Void, Never>(current: nil, kind: .observableObject)

    /// Creates an observable object publisher instance.
    ///
    /// ```swift
    /// let objectWillChange = ObservableObjectPublisher()
    /// ```
    public init() {}

    /// Attaches the specified subscriber to this publisher.
    ///
    /// - Parameter subscriber: Receives a signal for every ``send()`` made after its first
    ///   request.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.receive(subscriber: subscriber)
    }

    /// Sends the changed value to the downstream subscribers.
    ///
    /// ```swift
    /// publisher.send()   // every subscriber with demand receives ()
    /// ```
    public func send() {
        core.send(())
    }
}
