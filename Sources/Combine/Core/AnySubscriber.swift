// SPDX-License-Identifier: Apache-2.0
/// A type-erasing subscriber.
///
/// Wrap a subscriber to hide its type, or build one from closures:
///
/// ```swift
/// let subscriber = AnySubscriber<Int, Never>(
///     receiveSubscription: { $0.request(.max(2)) },
///     receiveValue: { print($0); return .none },
///     receiveCompletion: { print($0) })
/// ```
///
/// An `AnySubscriber` wrapping a subscriber has that subscriber's `combineIdentifier`.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    let box: AnySubscriberBoxBase<Input, Failure>

    /// Delivers a value. A closure made where the subscriber's type is known (inlined into
    /// the caller), so that each value runs code specialised for that subscriber rather than
    /// the box's overridden method, which a generic class runs unspecialised.
    @usableFromInline
    let receiveValueBody: (Input) -> Subscribers.Demand

    /// The identifier of the wrapped subscriber, or a fresh one for a closure-based subscriber.
    public let combineIdentifier: CombineIdentifier

    /// Wraps `s`, forwarding every event to it and taking its `combineIdentifier`. Wrapping an
    /// `AnySubscriber` returns that same value.
    @inlinable
    public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
        } else {
            let typed = AnySubscriberBox(s)
            box = typed
            receiveValueBody = { typed.base.receive($0) }
            combineIdentifier = s.combineIdentifier
        }
    }

    /// Creates a type-erasing subscriber that feeds the given subject: values and completion
    /// are sent to it, and the subject decides the demand of the upstream subscription.
    public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Creates a subscriber with a fresh identifier whose events are handled by the given
    /// closures; any closure left `nil` is skipped.
    ///
    /// - Parameters:
    ///   - receiveSubscription: Called with the subscription; use it to request values.
    ///   - receiveValue: Called with each value; returns additional demand. When `nil`,
    ///     values are ignored and no additional demand is returned.
    ///   - receiveCompletion: Called with the completion.
    public init(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = ClosureSubscriberBox(receiveSubscription, receiveCompletion)
        receiveValueBody = receiveValue ?? { _ in .none }
        combineIdentifier = CombineIdentifier()
    }

    /// Passes the subscription to the wrapped subscriber, or to the `receiveSubscription`
    /// closure.
    ///
    /// - Parameter subscription: The subscription the publisher hands over.
    @inlinable
    public func receive(subscription: Subscription) {
        box.receive(subscription: subscription)
    }

    /// Passes a value to the wrapped subscriber, or to the `receiveValue` closure.
    ///
    /// - Parameter value: The value the publisher delivers.
    /// - Returns: The additional demand the wrapped subscriber or closure returns; `.none`
    ///   when the subscriber was made without a `receiveValue` closure.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueBody(value)
    }

    /// Passes the completion to the wrapped subscriber, or to the `receiveCompletion`
    /// closure.
    ///
    /// - Parameter completion: How the publisher ended: `.finished` or `.failure`.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receive(completion: completion)
    }

    /// The wrapped subscriber's description, or "Anonymous AnySubscriber".
    public var description: String { box.description }

    /// The wrapped subscriber's mirror; for a closure-based subscriber, a mirror of its
    /// description.
    public var customMirror: Mirror { box.customMirror }

    /// The description shown in a playground: the same as `description`.
    public var playgroundDescription: Any { description }
}

@usableFromInline
class AnySubscriberBoxBase<Input, Failure: Error>: @unchecked Sendable {
    @inlinable
    init() {}

    @inlinable
    func receive(subscription: Subscription) { fatalError("abstract") }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

    var description: String { "Anonymous AnySubscriber" }

    /// As Apple's: a closure-based subscriber reflects as its description.
    var customMirror: Mirror { Mirror(reflecting: description) }

    /// Whether the wrapped subscriber is introspection's stand-in (see `_Introspection`).
    var isIntrospected: Bool { false }
}

@usableFromInline
final class AnySubscriberBox<Base: Subscriber>: AnySubscriberBoxBase<Base.Input, Base.Failure>,
    @unchecked Sendable
{
    @usableFromInline
    let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
    }

    @inlinable
    override func receive(subscription: Subscription) {
        base.receive(subscription: subscription)
    }

    @inlinable
    override func receive(completion: Subscribers.Completion<Base.Failure>) {
        base.receive(completion: completion)
    }

    override var description: String { String(describing: base) }

    override var customMirror: Mirror {
        (base as? CustomReflectable)?.customMirror ?? Mirror(reflecting: base)
    }

    override var isIntrospected: Bool {
        (base as? any IntrospectedSubscriber)?.isIntrospected ?? false
    }
}

extension AnySubscriber: IntrospectedSubscriber {
    @usableFromInline
    var isIntrospected: Bool { box.isIntrospected }
}

final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBoxBase<Input, Failure>,
    @unchecked Sendable
{
    let receiveSubscriptionBody: ((Subscription) -> Void)?
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    init(
        _ receiveSubscription: ((Subscription) -> Void)?,
        _ receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveCompletionBody = receiveCompletion
    }

    override func receive(subscription: Subscription) {
        receiveSubscriptionBody?(subscription)
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody?(completion)
    }
}
