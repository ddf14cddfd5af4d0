// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Synchronization

// The pieces of the randomized model tests (ModelTests.swift): a seeded generator, the
// description of one random case, two reference interpreters and the builder of the real
// operator chain.
//
// The first reference, `ModelOperator.apply`, works on plain arrays: what the chain
// publishes when nothing limits it. The second, `ReferencePipeline`, restates Apple's
// demand rules in a few small single-threaded classes (no locks, no generics, Int values):
// when each value and the completion arrive under a given demand. The real chain has to
// match the second event for event, and the second has to agree with the first.

// MARK: - Random numbers

/// SplitMix64: one 64-bit word of state, so a case is reproducible from its seed alone.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The generator of case `index` of a run seeded with `seed`.
    static func forCase(_ index: Int, of seed: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }
}

// MARK: - A case

/// The failure type of every model chain: the value that made `tryMap` throw, or the code
/// the source failed with.
struct ModelError: Error, Equatable {
    let code: Int
}

/// How a source, or the whole chain, ends.
enum ModelEnding: Equatable, CustomStringConvertible {
    case finished
    case failure(Int)

    var description: String {
        switch self {
        case .finished: "finished"
        case .failure(let code): "failure(\(code))"
        }
    }
}

/// Demand in the reference model: `nil` is unlimited. Kept apart from `Subscribers.Demand`
/// so the reference does not lean on the arithmetic under test.
struct Want: Equatable, CustomStringConvertible {
    var count: Int?

    static let none = Want(count: 0)
    static let unlimited = Want(count: nil)
    static func max(_ count: Int) -> Want { Want(count: count) }

    var isZero: Bool { count == 0 }

    static func + (lhs: Want, rhs: Want) -> Want {
        guard let left = lhs.count, let right = rhs.count else { return .unlimited }
        return .max(left + right)
    }

    static func * (lhs: Want, factor: Int) -> Want {
        guard let count = lhs.count else { return .unlimited }
        return .max(count * factor)
    }

    /// One value delivered: unlimited stays unlimited, and zero stays zero.
    mutating func takeOne() {
        if let count, count > 0 { self.count = count - 1 }
    }

    var demand: Subscribers.Demand { count.map { .max($0) } ?? .unlimited }

    var description: String { count.map { $0 == 0 ? ".none" : ".max(\($0))" } ?? ".unlimited" }
}

/// One operator of a random chain. Every operator maps `Int` values with failure
/// `ModelError` to the same, so any order composes.
enum ModelOperator: Equatable, CustomStringConvertible {
    case map(multiplier: Int, offset: Int)
    case filter(divisor: Int, remainder: Int)
    case compactMap(divisor: Int)
    case scan(initial: Int)
    case removeDuplicates
    case dropFirst(Int)
    case prefix(Int)
    case prefixWhile(below: Int)
    case dropWhile(below: Int)
    /// `collect(n)` followed by a `map` folding each array into one `Int`.
    case collect(Int)
    case output(lower: Int, upper: Int)
    case firstWhere(divisor: Int, remainder: Int)
    case last
    case reduce(initial: Int)
    case count
    /// `tryMap` throwing `ModelError(code: value)` for matching values, then `mapError`
    /// back to `ModelError`.
    case tryMap(divisor: Int, remainder: Int)
    /// `catch` switching to a sequence of these values.
    case catchWith([Int])
    /// `replaceError(with:)`, then `setFailureType(to: ModelError.self)`.
    case replaceError(Int)
    case append([Int])
    case prepend([Int])

    var description: String {
        switch self {
        case .map(let multiplier, let offset): ".map { $0 * \(multiplier) + \(offset) }"
        case .filter(let divisor, let remainder): ".filter { $0 mod \(divisor) == \(remainder) }"
        case .compactMap(let divisor): ".compactMap { $0 mod \(divisor) == 0 ? nil : $0 - 1 }"
        case .scan(let initial): ".scan(\(initial), +)"
        case .removeDuplicates: ".removeDuplicates()"
        case .dropFirst(let count): ".dropFirst(\(count))"
        case .prefix(let count): ".prefix(\(count))"
        case .prefixWhile(let bound): ".prefix(while: { $0 < \(bound) })"
        case .dropWhile(let bound): ".drop(while: { $0 < \(bound) })"
        case .collect(let count): ".collect(\(count)).map(fold)"
        case .output(let lower, let upper): ".output(in: \(lower)..<\(upper))"
        case .firstWhere(let divisor, let remainder): ".first(where: { $0 mod \(divisor) == \(remainder) })"
        case .last: ".last()"
        case .reduce(let initial): ".reduce(\(initial), +)"
        case .count: ".count()"
        case .tryMap(let divisor, let remainder): ".tryMap { throws if $0 mod \(divisor) == \(remainder) }"
        case .catchWith(let values): ".catch { _ in \(values).publisher }"
        case .replaceError(let value): ".replaceError(with: \(value))"
        case .append(let values): ".append(\(values))"
        case .prepend(let values): ".prepend(\(values))"
        }
    }
}

/// Where the values come from.
enum ModelSource: Equatable {
    /// `Publishers.Sequence` (followed by `append(Fail(...))` when the case ends in failure).
    case sequence
    /// A `PassthroughSubject` the driver sends the values into, one at a time.
    case subject
}

/// One random case: a source, a chain, and the test subscriber's demand.
///
/// The subject source sends whatever demand there is: a value sent while the subscription
/// has none is dropped, as Apple's `PassthroughSubject` drops it, and the reference model
/// drops it too. Before each value the driver may request more (`requestsBeforeSends`), so
/// the interleaving of sends and requests is part of the case.
struct ModelCase: Equatable, CustomStringConvertible {
    var source: ModelSource
    var values: [Int]
    var ending: ModelEnding
    var operators: [ModelOperator]
    /// The subscriber's demand on subscription (`.none`: it asks for nothing).
    var initialDemand: Want
    /// What the subscriber returns from its n-th `receive(_:)`; 0 once this runs out.
    var demandPerValue: [Int]
    /// For a subject source, one entry per value: requested before that value is sent
    /// (0: nothing).
    var requestsBeforeSends: [Int]
    /// Requested one at a time once the source is done and delivery has stalled, while no
    /// completion has arrived.
    var stallRequests: [Want]

    var description: String {
        var text = source == .sequence ? "Publishers.Sequence(\(values))" : "PassthroughSubject sending \(values)"
        if case .failure(let code) = ending { text += " then failing with \(code)" }
        text +=
            "\n    " + (operators.isEmpty ? "(no operators)" : operators.map(\.description).joined(separator: "\n    "))
        text += "\n  subscriber: initial demand \(initialDemand), returns \(demandPerValue) per value"
        if source == .subject { text += ", requests before each send \(requestsBeforeSends)" }
        text += ", requests after stalls \(stallRequests)"
        return text
    }
}

// MARK: - Generating a case

extension ModelCase {
    static func random(using generator: inout SplitMix64, source: ModelSource) -> ModelCase {
        let count = Int.random(in: 0...50, using: &generator)
        let values = (0..<count).map { _ in Int.random(in: 0...9, using: &generator) }
        let ending: ModelEnding =
            Int.random(in: 0..<5, using: &generator) == 0
            ? .failure(100 + Int.random(in: 0...9, using: &generator)) : .finished
        let operators = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
            ModelOperator.random(using: &generator)
        }
        let initialDemand: Want =
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<2: .none
            case 2..<7: .max(Int.random(in: 1...4, using: &generator))
            default: .unlimited
            }
        let demandPerValue = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
            [0, 0, 0, 1, 1, 2, 3].randomElement(using: &generator)!
        }
        let requestsBeforeSends: [Int] =
            source == .subject
            ? values.map { _ in
                Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 1...3, using: &generator) : 0
            }
            : []
        let stallRequests: [Want] = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
            Int.random(in: 0..<12, using: &generator) == 0 ? .unlimited : .max(Int.random(in: 1...5, using: &generator))
        }
        return ModelCase(
            source: source, values: values, ending: ending, operators: operators, initialDemand: initialDemand,
            demandPerValue: demandPerValue, requestsBeforeSends: requestsBeforeSends, stallRequests: stallRequests)
    }
}

extension ModelOperator {
    static func random(using generator: inout SplitMix64) -> ModelOperator {
        func small(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        func few() -> [Int] { (0..<small(0...3)).map { _ in small(0...9) } }
        switch small(0...19) {
        case 0: return .map(multiplier: small(1...3), offset: small(-3...3))
        case 1:
            let divisor = small(2...4)
            return .filter(divisor: divisor, remainder: small(0...(divisor - 1)))
        case 2: return .compactMap(divisor: small(2...4))
        case 3: return .scan(initial: small(0...3))
        case 4: return .removeDuplicates
        case 5: return .dropFirst(small(0...5))
        case 6: return .prefix(small(0...6))
        case 7: return .prefixWhile(below: small(1...10))
        case 8: return .dropWhile(below: small(1...10))
        case 9: return .collect(small(1...4))
        case 10:
            let lower = small(0...4)
            return .output(lower: lower, upper: lower + small(0...5))
        case 11:
            let divisor = small(2...5)
            return .firstWhere(divisor: divisor, remainder: small(0...(divisor - 1)))
        case 12: return .last
        case 13: return .reduce(initial: small(0...3))
        case 14: return .count
        case 15:
            let divisor = small(3...7)
            return .tryMap(divisor: divisor, remainder: small(0...(divisor - 1)))
        case 16: return .catchWith(few())
        case 17: return .replaceError(small(-9 ... -1))
        case 18: return .append(few())
        default: return .prepend(few())
        }
    }
}

// MARK: - The operators' value functions (shared by the real chain and both references)

/// `value mod divisor == remainder`, with a non-negative remainder for negative values.
func modelMatches(_ value: Int, _ divisor: Int, _ remainder: Int) -> Bool {
    ((value % divisor) + divisor) % divisor == remainder
}

/// Folds a collected group into one `Int`; the order and the size of the group count.
func modelFold(_ group: [Int]) -> Int {
    group.reduce(group.count) { $0 &* 31 &+ $1 }
}

func modelCompactMap(_ value: Int, _ divisor: Int) -> Int? {
    modelMatches(value, divisor, 0) ? nil : value - 1
}

// MARK: - Reference 1: plain arrays

extension ModelOperator {
    /// What the operator publishes, given everything its upstream publishes, when demand
    /// does not limit it.
    func apply(to values: [Int], ending: ModelEnding) -> (values: [Int], ending: ModelEnding) {
        switch self {
        case .map(let multiplier, let offset):
            return (values.map { $0 &* multiplier &+ offset }, ending)
        case .filter(let divisor, let remainder):
            return (values.filter { modelMatches($0, divisor, remainder) }, ending)
        case .compactMap(let divisor):
            return (values.compactMap { modelCompactMap($0, divisor) }, ending)
        case .scan(let initial):
            var sum = initial
            return (
                values.map {
                    sum = sum &+ $0
                    return sum
                }, ending
            )
        case .removeDuplicates:
            var kept: [Int] = []
            for value in values where value != kept.last { kept.append(value) }
            return (kept, ending)
        case .dropFirst(let count):
            return (Array(values.dropFirst(count)), ending)
        case .prefix(let count):
            return ModelOperator.output(lower: 0, upper: count).apply(to: values, ending: ending)
        case .output(let lower, let upper):
            if lower == upper { return ([], .finished) }
            if values.count >= upper { return (Array(values[lower..<upper]), .finished) }
            return (Array(values.dropFirst(lower)), ending)
        case .prefixWhile(let bound):
            let kept = Array(values.prefix { $0 < bound })
            return (kept, kept.count < values.count ? .finished : ending)
        case .dropWhile(let bound):
            return (Array(values.drop { $0 < bound }), ending)
        case .collect(let count):
            var groups = stride(from: 0, to: values.count, by: count).map {
                Array(values[$0..<min($0 + count, values.count)])
            }
            if ending != .finished, groups.last?.count ?? count < count { groups.removeLast() }
            return (groups.map(modelFold), ending)
        case .firstWhere(let divisor, let remainder):
            if let match = values.first(where: { modelMatches($0, divisor, remainder) }) { return ([match], .finished) }
            return ([], ending)
        case .last:
            return (ending == .finished ? Array(values.suffix(1)) : [], ending)
        case .reduce(let initial):
            return (ending == .finished ? [values.reduce(initial, &+)] : [], ending)
        case .count:
            return (ending == .finished ? [values.count] : [], ending)
        case .tryMap(let divisor, let remainder):
            guard let index = values.firstIndex(where: { modelMatches($0, divisor, remainder) }) else {
                return (values, ending)
            }
            return (Array(values[..<index]), .failure(values[index]))
        case .catchWith(let fallback):
            return ending == .finished ? (values, ending) : (values + fallback, .finished)
        case .replaceError(let value):
            return ending == .finished ? (values, ending) : (values + [value], .finished)
        case .append(let suffix):
            return ending == .finished ? (values + suffix, ending) : (values, ending)
        case .prepend(let prefix):
            return (prefix + values, ending)
        }
    }
}

extension ModelCase {
    /// Everything the chain publishes under unlimited demand (a sequence source).
    var unlimitedOutput: (values: [Int], ending: ModelEnding) {
        operators.reduce((values, ending)) { $1.apply(to: $0.values, ending: $0.ending) }
    }
}

// MARK: - The real chain

/// Attaches `operators` to `upstream` one by one and subscribes `subscriber` to the result.
/// Generic over the upstream so that each step uses the generic `Publisher` operator (not
/// the `Publishers.Sequence` shortcuts Apple also offers).
func attachModelChain<Upstream: Publisher>(
    _ operators: ArraySlice<ModelOperator>, to upstream: Upstream, subscriber: TestSubscriber<Int, ModelError>
) where Upstream.Output == Int, Upstream.Failure == ModelError {
    guard let first = operators.first else {
        upstream.subscribe(subscriber)
        return
    }
    let rest = operators.dropFirst()
    switch first {
    case .map(let multiplier, let offset):
        attachModelChain(rest, to: upstream.map { $0 &* multiplier &+ offset }, subscriber: subscriber)
    case .filter(let divisor, let remainder):
        attachModelChain(rest, to: upstream.filter { modelMatches($0, divisor, remainder) }, subscriber: subscriber)
    case .compactMap(let divisor):
        attachModelChain(rest, to: upstream.compactMap { modelCompactMap($0, divisor) }, subscriber: subscriber)
    case .scan(let initial):
        attachModelChain(rest, to: upstream.scan(initial) { $0 &+ $1 }, subscriber: subscriber)
    case .removeDuplicates:
        attachModelChain(rest, to: upstream.removeDuplicates(), subscriber: subscriber)
    case .dropFirst(let count):
        attachModelChain(rest, to: upstream.dropFirst(count), subscriber: subscriber)
    case .prefix(let count):
        attachModelChain(rest, to: upstream.prefix(count), subscriber: subscriber)
    case .prefixWhile(let bound):
        attachModelChain(rest, to: upstream.prefix(while: { $0 < bound }), subscriber: subscriber)
    case .dropWhile(let bound):
        attachModelChain(rest, to: upstream.drop(while: { $0 < bound }), subscriber: subscriber)
    case .collect(let count):
        attachModelChain(rest, to: upstream.collect(count).map(modelFold), subscriber: subscriber)
    case .output(let lower, let upper):
        attachModelChain(rest, to: upstream.output(in: lower..<upper), subscriber: subscriber)
    case .firstWhere(let divisor, let remainder):
        attachModelChain(rest, to: upstream.first { modelMatches($0, divisor, remainder) }, subscriber: subscriber)
    case .last:
        attachModelChain(rest, to: upstream.last(), subscriber: subscriber)
    case .reduce(let initial):
        attachModelChain(rest, to: upstream.reduce(initial) { $0 &+ $1 }, subscriber: subscriber)
    case .count:
        attachModelChain(rest, to: upstream.count(), subscriber: subscriber)
    case .tryMap(let divisor, let remainder):
        let throwing = upstream.tryMap { value in
            if modelMatches(value, divisor, remainder) { throw ModelError(code: value) }
            return value
        }
        attachModelChain(rest, to: throwing.mapError { $0 as! ModelError }, subscriber: subscriber)
    case .catchWith(let fallback):
        let caught = upstream.catch { _ in Publishers.Sequence<[Int], ModelError>(sequence: fallback) }
        attachModelChain(rest, to: caught, subscriber: subscriber)
    case .replaceError(let value):
        attachModelChain(
            rest, to: upstream.replaceError(with: value).setFailureType(to: ModelError.self), subscriber: subscriber)
    case .append(let suffix):
        attachModelChain(rest, to: upstream.append(suffix), subscriber: subscriber)
    case .prepend(let prefix):
        attachModelChain(rest, to: upstream.prepend(prefix), subscriber: subscriber)
    }
}
