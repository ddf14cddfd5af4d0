/// A publisher that performs type erasure by wrapping another publisher.
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
    @usableFromInline
    let box: PublisherBoxBase<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            box = erased.box
        } else {
            box = PublisherBox(publisher)
        }
    }

    public var description: String { "AnyPublisher" }
}

extension AnyPublisher: CustomPlaygroundDisplayConvertible {
    /// A description shown in a playground: the type-erased publisher's name.
    public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        box.receive(subscriber: subscriber)
    }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns this publisher: it is already type-erased.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        self
    }
}

@usableFromInline
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
        fatalError("PublisherBoxBase.receive(subscriber:) is abstract")
    }
}

@usableFromInline
final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure>, @unchecked Sendable {
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    @inlinable
    override func receive<S: Subscriber>(subscriber: S) where Base.Output == S.Input, Base.Failure == S.Failure {
        base.receive(subscriber: subscriber)
    }
}
