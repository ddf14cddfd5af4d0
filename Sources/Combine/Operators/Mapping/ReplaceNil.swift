extension Publisher {
    /// Replaces `nil` elements in the stream with the provided element.
    ///
    /// ```swift
    /// [1, nil, 3].publisher.replaceNil(with: 0).sink { print($0) }   // 1, 0, 3
    /// ```
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
