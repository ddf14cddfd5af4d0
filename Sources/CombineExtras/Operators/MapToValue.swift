// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Replaces each value with the same constant.
    ///
    /// ![A marble diagram of mapToValue(_:), drawn from a run of it](marble-mapToValue)
    ///
    /// ```swift
    /// // upstream:         -a--b--c--|
    /// // mapToValue("x"):  -x--x--x--|
    /// let taps = PassthroughSubject<Int, Never>()
    /// let cancellable = taps.mapToValue("tapped").sink { print($0) }
    /// taps.send(1)   // prints "tapped"
    /// ```
    ///
    /// - Parameter value: The value published for each upstream value.
    /// - Returns: A publisher of `value` once per upstream value, with the upstream's demand and
    ///   completion.
    public func mapToValue<Value>(_ value: Value) -> Publishers.Map<Self, Value> {
        map { _ in value }
    }

    /// Replaces each value with `()`, keeping only the fact that something was published.
    ///
    /// ![A marble diagram of mapToVoid(), drawn from a run of it](marble-mapToVoid)
    ///
    /// ```swift
    /// // upstream:    -a--b--|
    /// // mapToVoid(): -()-()-|
    /// let saves = PassthroughSubject<String, Never>()
    /// let cancellable = saves.mapToVoid().sink { print("saved") }
    /// saves.send("draft.txt")   // prints "saved"
    /// ```
    ///
    /// - Returns: A publisher of `()` once per upstream value, with the upstream's demand and
    ///   completion.
    public func mapToVoid() -> Publishers.Map<Self, Void> {
        map { _ in () }
    }
}
