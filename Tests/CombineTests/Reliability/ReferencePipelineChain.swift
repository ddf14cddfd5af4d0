// SPDX-License-Identifier: Apache-2.0
// Reference 2 of the model tests (ReferencePipeline.swift has its stages): building a chain of
// reference stages from a list of `ModelOperator`s.

extension ModelOperator {
    /// This operator applied to `upstream`, in the reference model.
    func reference(after upstream: @escaping ReferencePublisher) -> ReferencePublisher {
        switch self {
        case .map(let multiplier, let offset):
            return stepping(upstream) { { .emit($0 &* multiplier &+ offset) } }
        case .filter(let divisor, let remainder):
            return stepping(upstream) { { modelMatches($0, divisor, remainder) ? .emit($0) : .skip } }
        case .compactMap(let divisor):
            return stepping(upstream) { { modelCompactMap($0, divisor).map(ReferenceStep.emit) ?? .skip } }
        case .scan(let initial):
            return stepping(upstream) {
                var sum = initial
                return {
                    sum = sum &+ $0
                    return .emit(sum)
                }
            }
        case .removeDuplicates:
            return stepping(upstream) {
                var previous: Int?
                return { value in
                    defer { previous = value }
                    return value == previous ? .skip : .emit(value)
                }
            }
        case .dropFirst(let count):
            return stepping(upstream, requestsOnSubscription: count) {
                var dropped = 0
                return { value in
                    guard dropped < count else { return .emit(value) }
                    dropped += 1
                    return .drop
                }
            }
        case .prefix(let count):
            return ModelOperator.output(lower: 0, upper: count).reference(after: upstream)
        case .output(let lower, let upper):
            return stepping(upstream, finishesOnSubscription: lower == upper) {
                var index = 0
                return { value in
                    defer { index += 1 }
                    if index < lower { return .skip }
                    return index + 1 >= upper ? .emitAndFinish(value) : .emit(value)
                }
            }
        case .prefixWhile(let bound):
            return stepping(upstream) { { $0 < bound ? .emit($0) : .finish } }
        case .dropWhile(let bound):
            return stepping(upstream) {
                var dropping = true
                return { value in
                    if dropping, value < bound { return .skip }
                    dropping = false
                    return .emit(value)
                }
            }
        case .tryMap(let divisor, let remainder):
            return stepping(upstream) { { modelMatches($0, divisor, remainder) ? .fail($0) : .emit($0) } }
        case .collect(let size):
            return { upstream(ReferenceCollectStage(size: size, downstream: $0)) }
        case .firstWhere(let divisor, let remainder):
            return reducing(upstream) {
                var found: Int?
                return (
                    { value in
                        guard modelMatches(value, divisor, remainder) else { return false }
                        found = value
                        return true
                    }, { found }
                )
            }
        case .last:
            return reducing(upstream) {
                var latest: Int?
                let take: (Int) -> Bool = {
                    latest = $0
                    return false
                }
                return (take, { latest })
            }
        case .reduce(let initial):
            return reducing(upstream) {
                var sum = initial
                let take: (Int) -> Bool = {
                    sum = sum &+ $0
                    return false
                }
                return (take, { sum })
            }
        case .count:
            return reducing(upstream) {
                var count = 0
                let take: (Int) -> Bool = { _ in
                    count += 1
                    return false
                }
                return (take, { count })
            }
        case .catchWith(let fallback):
            return succession(first: upstream) {
                $0 == .finished ? nil : referenceSequence(fallback, ending: .finished)
            }
        case .replaceError(let value):
            return { upstream(ReferenceReplaceErrorStage(replacement: value, downstream: $0)) }
        case .append(let suffix):
            return succession(first: upstream) { $0 == .finished ? referenceSequence(suffix, ending: .finished) : nil }
        case .prepend(let prefix):
            return succession(first: referenceSequence(prefix, ending: .finished)) { $0 == .finished ? upstream : nil }
        }
    }
}

/// A value-by-value stage; `makeStep` runs once per subscription, so its state is fresh.
private func stepping(
    _ upstream: @escaping ReferencePublisher, requestsOnSubscription: Int = 0, finishesOnSubscription: Bool = false,
    makeStep: @escaping () -> (Int) -> ReferenceStep
) -> ReferencePublisher {
    { downstream in
        upstream(
            ReferenceStepStage(
                downstream: downstream, requestsOnSubscription: requestsOnSubscription,
                finishesOnSubscription: finishesOnSubscription, step: makeStep()))
    }
}

private func reducing(
    _ upstream: @escaping ReferencePublisher, makeReducer: @escaping () -> ((Int) -> Bool, () -> Int?)
) -> ReferencePublisher {
    { downstream in
        let (take, result) = makeReducer()
        upstream(ReferenceReduceStage(downstream: downstream, take: take, result: result))
    }
}

private func succession(
    first: @escaping ReferencePublisher, next: @escaping (ModelEnding) -> ReferencePublisher?
) -> ReferencePublisher {
    { downstream in ReferenceSuccession(downstream: downstream, next: next).start(with: first) }
}
