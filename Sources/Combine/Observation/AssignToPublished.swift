// SPDX-License-Identifier: Apache-2.0
extension Publisher where Failure == Never {
    /// Subscribes to this publisher and writes every value it emits into a `@Published`
    /// property, whose own publisher then passes the value on.
    ///
    /// Each element is assigned to the `@Published` property exactly as a plain assignment
    /// would: the object's `objectWillChange` fires, the property's subscribers receive the
    /// element, the property stores it. The subscription lives as long as the property's
    /// object and is cancelled when the object goes away, so no `AnyCancellable` is
    /// returned; it holds neither the object nor the property, so assigning a publisher
    /// derived from the same object makes no reference cycle.
    ///
    /// ```swift
    /// final class Clock {
    ///     @Published var ticks = 0
    ///     init(source: some Publisher<Int, Never>) {
    ///         source.assign(to: &$ticks)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter published: The projected value (`$property`) of the `@Published` property
    ///   that each value is assigned to.
    public func assign(to published: inout Published<Output>.Publisher) {
        subscribe(PublishedAssignment(box: published.box))
    }
}

/// The subscriber of `assign(to:)`: it holds the property's storage weakly, the storage
/// holds the subscription, so the subscription ends with the storage.
private final class PublishedAssignment<Input>: Subscriber, CustomStringConvertible, @unchecked Sendable {
    typealias Failure = Never

    /// Set once in `init`, never changed: safe to read from any thread.
    private weak var box: PublishedBox<Input>?
    let combineIdentifier = CombineIdentifier()

    init(box: PublishedBox<Input>) {
        self.box = box
    }

    var description: String { "Assign" }

    func receive(subscription: Subscription) {
        guard let box else {
            subscription.cancel()
            return
        }
        box.attach(subscription, for: combineIdentifier)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        box?.publish(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        box?.detach(combineIdentifier)
    }
}
