// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineSynchronization

extension Future where Failure == Never {
    /// Creates a future that runs an `async` closure at once, in a task, and publishes its
    /// result to every subscriber.
    ///
    /// ```swift
    /// let greeting = Future { await greeter.hello() }
    /// let cancellable = greeting.sink { print($0) }
    /// // Prints the greeting when the closure returns
    /// ```
    ///
    /// A `Future` starts its work when it is created and shares the one result with every
    /// subscriber, so a subscriber's cancel does not stop the task (other subscribers may be
    /// waiting for it); the cancelled subscriber receives nothing more. For work that runs per
    /// subscription and stops when its subscriber cancels, use
    /// `Just(()).asyncMap { await work() }` instead: its task is cancelled with the
    /// subscription.
    ///
    /// - Parameter operation: The `async` closure whose result the future publishes.
    public convenience init(_ operation: @escaping @Sendable () async -> Output) {
        self.init { promise in
            let fulfil = UncheckedSendable(promise)
            Task { fulfil.value(.success(await operation())) }
        }
    }
}

extension Future where Failure == any Error {
    /// Creates a future that runs a throwing `async` closure at once, in a task, and publishes
    /// its result, or fails with the error it throws, to every subscriber.
    ///
    /// ```swift
    /// let profile = Future { try await api.profile() }
    /// let cancellable = profile.sink(
    ///     receiveCompletion: { print($0) },
    ///     receiveValue: { print($0.name) })
    /// ```
    ///
    /// As the non-throwing form: the task starts at once and its result is shared, so a
    /// subscriber's cancel does not stop it. For work that stops when its subscriber cancels,
    /// use `Just(()).tryAsyncMap { try await work() }`.
    ///
    /// - Parameter operation: The throwing `async` closure whose result the future publishes.
    public convenience init(_ operation: @escaping @Sendable () async throws -> Output) {
        self.init { promise in
            let fulfil = UncheckedSendable(promise)
            Task {
                do {
                    fulfil.value(.success(try await operation()))
                } catch {
                    fulfil.value(.failure(error))
                }
            }
        }
    }
}
