// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Drops the failure: a failing upstream ends the stream as if it had finished — or, with
    /// `completeImmediately: false`, leaves it silent and open until it is cancelled. The
    /// counterpart of `ignoreOutput()` for failures.
    ///
    /// ![A marble diagram of ignoreFailure(completeImmediately:), drawn from a run of it](marble-ignoreFailure)
    ///
    /// ```swift
    /// // upstream:      --1--2--#
    /// // ignoreFailure: --1--2--|     (completeImmediately: true)
    /// // ignoreFailure: --1--2---     (completeImmediately: false: never completes)
    /// ```
    ///
    /// - Parameter completeImmediately: Whether to finish when the upstream fails (the default)
    ///   or never complete.
    /// - Returns: A publisher that never fails.
    public func ignoreFailure(completeImmediately: Bool = true) -> AnyPublisher<Output, Never> {
        self.catch { _ in Empty(completeImmediately: completeImmediately) }
            .eraseToAnyPublisher()
    }

    /// Drops the failure like `ignoreFailure(completeImmediately:)` and
    /// presents another failure type, for chains that need one.
    ///
    /// ![A marble diagram of ignoreFailure(setFailureType:completeImmediately:), drawn from a run of it](marble-ignoreFailure-setFailureType)
    ///
    /// ```swift
    /// // upstream:      --1--#
    /// // ignoreFailure: --1--|     (Failure is now NewFailure)
    /// ```
    ///
    /// - Parameters:
    ///   - newFailureType: The failure type to present; nothing of that type is ever sent.
    ///   - completeImmediately: Whether to finish when the upstream fails (the default) or
    ///     never complete.
    /// - Returns: A publisher with the new failure type that never fails.
    public func ignoreFailure<NewFailure: Error>(
        setFailureType newFailureType: NewFailure.Type, completeImmediately: Bool = true
    ) -> AnyPublisher<Output, NewFailure> {
        ignoreFailure(completeImmediately: completeImmediately)
            .setFailureType(to: newFailureType)
            .eraseToAnyPublisher()
    }
}
