import Combine
import Observation

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension Observable where Self: AnyObject {
    /// A publisher of a property of this `@Observable` object: the current value at once, then
    /// the value after each change.
    ///
    /// ```
    /// model.count:  0 ---1---2-2---3
    /// publisher:    0 ---1---2-----3   (changes made together arrive as one value)
    /// ```
    ///
    /// Built on the Observation module's `Observations` sequence (published through
    /// `AsyncSequence.publisher`, so demand is honoured: a value is read only when the
    /// subscriber wants one). Changes are coalesced as `Observations` coalesces them: several
    /// changes made in one turn arrive as one value, the value after them. The object is held
    /// weakly: the publisher never keeps it alive, and publishes nothing more once it is gone.
    ///
    /// The property is read on the actor the publisher is made on (`isolation`, by default
    /// the caller's): made from `@MainActor` code, a main-actor model is read on the main
    /// actor. Values are delivered from the subscription's task; use `receive(on:)` to move
    /// them to the main queue.
    ///
    /// ```swift
    /// @Observable final class Counter { var count = 0 }
    ///
    /// let counter = Counter()
    /// let cancellable = counter.observationPublisher(for: \.count)
    ///     .sink { print($0) }
    /// counter.count = 1
    /// // Prints 0, then 1
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property to publish.
    ///   - isolation: The actor the property is read on; the caller's by default.
    /// - Returns: A publisher of the property's value that never fails.
    public func observationPublisher<Value: Sendable>(
        for keyPath: KeyPath<Self, Value>, isolation: isolated (any Actor)? = #isolation
    ) -> Publishers.AsyncSequence<Observations<Value, Never>> {
        let object = WeakObject(self)
        let path = Handed(value: keyPath)
        return Observations.untilFinished {
            _ = isolation  // captured, so that the closure runs on that actor
            guard let object = object.object else { return .finish }
            return .next(object[keyPath: path.value])
        }.publisher
    }
}

/// The observed object, held weakly by the `Observations` closure. The closure reads the
/// property from the subscription's task, as any Combine publisher reads its source from the
/// thread that drives it.
private final class WeakObject<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}
