// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Wraps each value in `Result.success` and the failure, if any, in a last
    /// `Result.failure` value, so that the publisher never fails.
    ///
    /// ![A marble diagram of mapToResult(), drawn from a run of it](marble-mapToResult)
    ///
    /// ```swift
    /// // upstream:    --1--2--#        (fails with e)
    /// // mapToResult: --s--s--[f|]     s = .success, f = .failure(e), then finished
    /// ```
    ///
    /// The `.failure` value waits for demand like any other; it is followed by `finished`.
    /// An upstream that finishes gives no extra value.
    ///
    /// - Returns: A publisher of results that never fails.
    public func mapToResult() -> AnyPublisher<Result<Output, Failure>, Never> {
        map { .success($0) }
            .catch { Just(.failure($0)) }
            .eraseToAnyPublisher()
    }
}
