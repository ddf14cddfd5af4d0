// SPDX-License-Identifier: Apache-2.0
/// Counts the elements: `count()`.
struct CountReducer<Input, Failure: Error>: Reducer {
    var count = 0

    mutating func receive(_ input: Input) -> ReduceStep<Failure> {
        count += 1
        return .continue
    }

    func result() -> Int? { count }
}

/// Keeps the greatest element as ordered by `areInIncreasingOrder` (the first of equals):
/// `max`, and `min` with the order reversed.
struct ComparisonReducer<Element, Failure: Error>: Reducer {
    let areInIncreasingOrder: (Element, Element) -> Result<Bool, Failure>
    var best: Element?

    init(areInIncreasingOrder: @escaping (Element, Element) -> Result<Bool, Failure>) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    mutating func receive(_ input: Element) -> ReduceStep<Failure> {
        guard let current = best else {
            best = input
            return .continue
        }
        switch areInIncreasingOrder(current, input) {
        case .success(true): best = input
        case .success(false): break
        case .failure(let error): return .fail(error)
        }
        return .continue
    }

    func result() -> Element? { best }
}

/// Looks for an element that passes a test: `contains`, `allSatisfy`, `first`, `last` and
/// their `where`/`try` forms.
struct SearchReducer<Element, Output, Failure: Error>: Reducer {
    /// Whether an element is a match.
    let test: (Element) -> Result<Bool, Failure>
    /// What a match publishes.
    let onMatch: (Element) -> Output
    /// Whether the first match settles the result (`first`, `contains`) or a later one
    /// replaces it (`last`).
    let stopsAtFirstMatch: Bool
    var found: Output?

    /// - Parameters:
    ///   - fallback: What to publish when nothing matched (`false` for `contains`, `nil` for
    ///     `first`: then nothing is published).
    ///   - stopsAtFirstMatch: Whether the first match settles the result.
    ///   - test: Tells a match from the other elements, or fails.
    ///   - onMatch: Makes what a match publishes.
    init(
        fallback: Output?, stopsAtFirstMatch: Bool, test: @escaping (Element) -> Result<Bool, Failure>,
        onMatch: @escaping (Element) -> Output
    ) {
        self.found = fallback
        self.stopsAtFirstMatch = stopsAtFirstMatch
        self.test = test
        self.onMatch = onMatch
    }

    mutating func receive(_ input: Element) -> ReduceStep<Failure> {
        switch test(input) {
        case .success(true):
            found = onMatch(input)
            return stopsAtFirstMatch ? .finish : .continue
        case .success(false):
            return .continue
        case .failure(let error):
            return .fail(error)
        }
    }

    func result() -> Output? { found }
}

extension SearchReducer where Output == Element {
    /// `first(where:)` (stopping at the first match) or `last(where:)`.
    init(findingFirst: Bool, test: @escaping (Element) -> Result<Bool, Failure>) {
        self.init(fallback: nil, stopsAtFirstMatch: findingFirst, test: test, onMatch: { $0 })
    }
}

extension SearchReducer where Output == Bool {
    /// `contains(where:)`: `true` at the first match, `false` if none.
    init(containing test: @escaping (Element) -> Result<Bool, Failure>) {
        self.init(fallback: false, stopsAtFirstMatch: true, test: test, onMatch: { _ in true })
    }

    /// `allSatisfy`: `false` at the first element that fails the test, `true` if none does.
    init(allSatisfying test: @escaping (Element) -> Result<Bool, Failure>) {
        self.init(fallback: true, stopsAtFirstMatch: true, test: { test($0).map(!) }, onMatch: { _ in false })
    }
}
