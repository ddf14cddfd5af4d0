// SPDX-License-Identifier: Apache-2.0
import Combine

extension Publisher {
    /// Publishes sliding windows of `size` consecutive values: nothing until `size` values have
    /// arrived, then, for every value, an array of it and the `size - 1` values before it.
    ///
    /// ![A marble diagram of nwise(_:), drawn from a run of it](marble-nwise)
    ///
    /// ```swift
    /// // upstream: -1-2-3-4-|
    /// // nwise(3): -----a-b-|     a = [1, 2, 3], b = [2, 3, 4]
    /// ```
    ///
    /// While the first window fills, each value is answered with a request for one more, so the
    /// subscriber's demand counts windows. Completion and failure are the upstream's (a
    /// window that never filled is not published).
    ///
    /// - Parameter size: The number of values in a window; it must be greater than zero
    ///   (CombineExt asks for more than one; a size of one publishes each value alone).
    /// - Returns: A publisher of windows, oldest value first.
    public func nwise(_ size: Int) -> AnyPublisher<[Output], Failure> {
        precondition(size > 0, "nwise(_:): the window size must be greater than zero, got \(size)")
        return scan([Output]()) { window, value in
            var next = window.count == size ? Array(window.dropFirst()) : window
            next.append(value)
            return next
        }
        .filter { $0.count == size }
        .eraseToAnyPublisher()
    }
}
