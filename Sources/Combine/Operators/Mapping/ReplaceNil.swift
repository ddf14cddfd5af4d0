// SPDX-License-Identifier: Apache-2.0
extension Publisher {
    /// Publishes each optional value unwrapped, with `output` in place of every `nil`.
    ///
    /// ![A marble diagram of replaceNil(with:), drawn from a run of it](marble-replaceNil)
    ///
    /// Every element is published unwrapped: a `nil` becomes `output`, any other value is
    /// published as it is. Nothing else changes: it is a ``Publishers/Map`` over the upstream,
    /// so the completion, requests and the cancel pass straight through.
    ///
    /// ```swift
    /// let cancellable = [1, nil, 3].publisher
    ///     .replaceNil(with: 0)
    ///     .sink { print($0) }
    /// // Prints: 1, 0, 3
    /// ```
    ///
    /// - Parameter output: The element to publish in place of each `nil`.
    /// - Returns: A ``Publishers/Map`` that publishes non-optional elements.
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
