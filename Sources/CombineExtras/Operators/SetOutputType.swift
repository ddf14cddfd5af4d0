// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher where Output == Never {
    /// Gives a publisher that never publishes a value the output type a chain needs — the
    /// counterpart of `setFailureType(to:)`, useful after `ignoreOutput()`.
    ///
    /// ![A marble diagram of setOutputType(to:), drawn from a run of it](marble-setOutputType)
    ///
    /// ```swift
    /// // upstream:      ----|
    /// // setOutputType: ----|
    /// save.ignoreOutput().setOutputType(to: String.self).merge(with: messages)
    /// ```
    ///
    /// - Parameter outputType: The output type to present.
    /// - Returns: A publisher with the upstream's completion and no values.
    public func setOutputType<NewOutput>(to outputType: NewOutput.Type) -> Publishers.Map<Self, NewOutput> {
        map { _ -> NewOutput in }
    }
}
