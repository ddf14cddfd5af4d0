// SPDX-License-Identifier: Apache-2.0
/// One event of a publisher, held as a value: what `materialize()` publishes and
/// `dematerialize()` turns back into events.
///
/// ```swift
/// // upstream:      --1--2--#      (fails with e)
/// // materialize(): --v--v--[f|]   v = .value, f = .failure(e), then finished
/// ```
public enum Event<Output, Failure: Error> {
    /// A value the publisher published.
    case value(Output)
    /// The failure the publisher ended with.
    case failure(Failure)
    /// The publisher finished normally.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: Hashable where Output: Hashable, Failure: Hashable {}

extension Event: Sendable where Output: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(…)`, `failure(…)` or `finished`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let error): "failure(\(error))"
        case .finished: "finished"
        }
    }
}

/// A type that can present itself as an ``Event``: the requirement of the operators that work
/// on materialized publishers (`dematerialize()`, `values()`, `failures()`).
public protocol EventConvertible {
    /// The value type of the event.
    associatedtype Output
    /// The failure type of the event.
    associatedtype Failure: Error

    /// The event this value stands for.
    var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Output, Failure> { self }
}
