// SPDX-License-Identifier: Apache-2.0
/// A publisher that hides the concrete type of the publisher it wraps, keeping only its `Output`
/// and `Failure` types.
///
/// Use it to expose a publisher without its concrete type:
///
/// ```swift
/// var validated: AnyPublisher<String?, Never> {
///     $password.map { $0.count > 8 ? $0 : nil }.eraseToAnyPublisher()
/// }
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible {
    /// Subscribes a type-erased subscriber to the wrapped publisher. A closure made where the
    /// wrapped publisher's type is known (in ``init(_:)``, inlined into the caller), so that
    /// subscribing — and every value delivered through what it sets up — runs code
    /// specialised for that publisher. (A generic class's overridden methods run the generic,
    /// unspecialised code, looking types up at run time on every value: measured, a chain of
    /// 50 erased `map`s cost 82 instructions per stage that way.)
    ///
    /// Held in a box so that, as Apple's, an `AnyPublisher` is one object reference (code
    /// tested on Apple's platforms may rely on that; erasing twice shares the box).
    @usableFromInline
    let box: AnyPublisherBox<Output, Failure>

    /// Wraps `publisher`, so that subscribing to the result subscribes to it. Wrapping an
    /// `AnyPublisher` returns that same value.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            // `receive(subscriber:)`, not `subscribe(_:)`: as Apple's, the erased publisher is
            // reported to `_Introspection` once, as the `AnyPublisher`.
            box = AnyPublisherBox { publisher.receive(subscriber: $0) }
        }
    }

    /// A textual description of the publisher: "AnyPublisher", whatever it wraps.
    public var description: String { "AnyPublisher" }
}

/// The one object an ``AnyPublisher`` holds.
@usableFromInline
final class AnyPublisherBox<Output, Failure: Error> {
    @usableFromInline
    let subscribeBody: (AnySubscriber<Output, Failure>) -> Void

    @inlinable
    init(_ subscribeBody: @escaping (AnySubscriber<Output, Failure>) -> Void) {
        self.subscribeBody = subscribeBody
    }
}

extension AnyPublisher: CustomPlaygroundDisplayConvertible {
    /// A description shown in a playground: the type-erased publisher's name.
    public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        box.subscribeBody(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    ///
    /// ![A marble diagram of eraseToAnyPublisher(), drawn from a run of it](marble-eraseToAnyPublisher)
    ///
    /// Use it at the end of a chain to hide the nested operator types from an API, so that
    /// the chain can change without changing the declared type. Subscribing to the result
    /// subscribes to this publisher; events, requests and the cancel pass through unchanged.
    /// Erasing an `AnyPublisher` again returns it as it is.
    ///
    /// ```swift
    /// func evenNumbers(from numbers: PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never> {
    ///     numbers.filter { $0.isMultiple(of: 2) }.eraseToAnyPublisher()
    /// }
    ///
    /// let numbers = PassthroughSubject<Int, Never>()
    /// let cancellable = evenNumbers(from: numbers).sink { print($0) }
    /// numbers.send(1)
    /// numbers.send(2)
    /// // Prints: 2
    /// ```
    ///
    /// - Returns: An `AnyPublisher` with this publisher's `Output` and `Failure` that wraps
    ///   this publisher.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}
