extension Future where Failure == Never {
    /// The published value of the future, delivered asynchronously.
    ///
    /// Subscribes to the future and suspends until it publishes its value (at once if it
    /// already has). The wait does not end early when the task is cancelled: a future that
    /// cannot fail always has a value to give.
    ///
    /// ```swift
    /// let answer = Future<Int, Never> { promise in promise(.success(42)) }
    /// print(await answer.value)   // 42
    /// ```
    public final var value: Output {
        get async {
            // The iteration of a `Never`-failing future ends only with its value.
            try! await futureResult()
        }
    }
}

extension Future {
    /// The published value of the future or an error, delivered asynchronously.
    ///
    /// Subscribes to the future and suspends until it publishes its value, or throws the
    /// error it fails with.
    ///
    /// ```swift
    /// let download = Future<Data, URLError> { promise in fetch(completion: promise) }
    /// do {
    ///     let data = try await download.value
    /// } catch {
    ///     print("failed:", error)
    /// }
    /// ```
    public final var value: Output {
        get async throws {
            try await futureResult()
        }
    }

    private func futureResult() async throws -> Output {
        let iteration = AsyncIteration<Output, Failure>()
        subscribe(iteration)
        return try await iteration.next()!
    }
}
