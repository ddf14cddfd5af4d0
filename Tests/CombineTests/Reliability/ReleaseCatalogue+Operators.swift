// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

// The operators of `Publisher`, each applied to the rig's subject (erased, so that the generic
// operator and its `Publishers.*` type are the ones under test, not a specialised overload of
// `Just` or `Publishers.Sequence`), with the token captured in every closure the operator
// takes. Operators without a closure are covered by the token in the sink.

private typealias Up = AnyPublisher<Int, Never>

private let failure = CoreTestError(code: 1)

private func failable(_ up: Up) -> Publishers.SetFailureType<Up, CoreTestError> {
    up.setFailureType(to: CoreTestError.self)
}

let mappingReleaseCases: [ReleaseCase] = [
    .op("map") { up, t in up.map { t.pass($0) } },
    .op("map(keyPath)") { up, _ in up.map(\.self) },
    .op("map(keyPath, keyPath)") { up, _ in up.map(\.self, \.bitWidth) },
    .op("map(keyPath, keyPath, keyPath)") { up, _ in up.map(\.self, \.bitWidth, \.description) },
    .op("tryMap") { up, t in up.tryMap { t.pass($0) } },
    .op("mapError") { up, t in failable(up).mapError { t.pass($0) } },
    .op("setFailureType") { up, _ in failable(up) },
    .op("replaceNil") { up, t in up.map { t.pass(Optional($0)) }.replaceNil(with: 0) },
    .op("scan") { up, t in up.scan(0) { t.pass($0 + $1) } },
    .op("tryScan") { up, t in up.tryScan(0) { t.pass($0 + $1) } },
    .op("filter") { up, t in up.filter { t.pass($0 > 0) } },
    .op("tryFilter") { up, t in up.tryFilter { t.pass($0 > 0) } },
    .op("compactMap") { up, t in up.compactMap { t.pass($0) } },
    .op("tryCompactMap") { up, t in up.tryCompactMap { t.pass($0) } },
    .op("removeDuplicates()") { up, _ in up.removeDuplicates() },
    .op("removeDuplicates(by:)") { up, t in up.removeDuplicates { t.pass($0 == $1) } },
    .op("tryRemoveDuplicates(by:)") { up, t in up.tryRemoveDuplicates { t.pass($0 == $1) } },
    .op("replaceEmpty") { up, _ in up.replaceEmpty(with: 0) },
    .op("replaceError") { up, _ in failable(up).replaceError(with: 0) },
    .op("eraseToAnyPublisher") { up, t in up.map { t.pass($0) }.eraseToAnyPublisher() },
]

let reducingReleaseCases: [ReleaseCase] = [
    .op("collect()") { up, _ in up.collect() },
    .op("collect(2)") { up, _ in up.collect(2) },
    .op("ignoreOutput") { up, _ in up.ignoreOutput() },
    .op("reduce") { up, t in up.reduce(0) { t.pass($0 + $1) } },
    .op("tryReduce") { up, t in up.tryReduce(0) { t.pass($0 + $1) } },
    .op("count") { up, _ in up.count() },
    .op("min()") { up, _ in up.min() },
    .op("max()") { up, _ in up.max() },
    .op("min(by:)") { up, t in up.min { t.pass($0 < $1) } },
    .op("max(by:)") { up, t in up.max { t.pass($0 < $1) } },
    .op("tryMin(by:)") { up, t in up.tryMin { t.pass($0 < $1) } },
    .op("tryMax(by:)") { up, t in up.tryMax { t.pass($0 < $1) } },
    .op("contains(_:)") { up, _ in up.contains(99) },
    .op("contains(where:)") { up, t in up.contains { t.pass($0 == 99) } },
    .op("tryContains(where:)") { up, t in up.tryContains { t.pass($0 == 99) } },
    .op("allSatisfy") { up, t in up.allSatisfy { t.pass($0 > 0) } },
    .op("tryAllSatisfy") { up, t in up.tryAllSatisfy { t.pass($0 > 0) } },
    .op("first()") { up, _ in up.first() },
    .op("first(where:)") { up, t in up.first { t.pass($0 > 1) } },
    .op("tryFirst(where:)") { up, t in up.tryFirst { t.pass($0 > 1) } },
    .op("last()") { up, _ in up.last() },
    .op("last(where:)") { up, t in up.last { t.pass($0 > 0) } },
    .op("tryLast(where:)") { up, t in up.tryLast { t.pass($0 > 0) } },
]

let sequenceReleaseCases: [ReleaseCase] = [
    .op("dropFirst") { up, _ in up.dropFirst() },
    .op("drop(while:)") { up, t in up.drop { t.pass($0 < 0) } },
    .op("tryDrop(while:)") { up, t in up.tryDrop { t.pass($0 < 0) } },
    .op("drop(untilOutputFrom:)") { up, _ in up.drop(untilOutputFrom: Just(())) },
    .op("append(values)") { up, _ in up.append(4, 5) },
    .op("append(sequence)") { up, _ in up.append([4, 5]) },
    .op("append(publisher)") { up, t in up.append(Just(4).map { t.pass($0) }) },
    .op("prepend(values)") { up, _ in up.prepend(0) },
    .op("prepend(sequence)") { up, _ in up.prepend([-1, 0]) },
    .op("prepend(publisher)") { up, t in up.prepend(Just(0).map { t.pass($0) }) },
    .op("prefix(_:)") { up, _ in up.prefix(5) },
    .op("prefix(while:)") { up, t in up.prefix { t.pass($0 < 99) } },
    .op("tryPrefix(while:)") { up, t in up.tryPrefix { t.pass($0 < 99) } },
    .op("prefix(untilOutputFrom:)") { up, _ in
        up.prefix(untilOutputFrom: Empty<Void, Never>(completeImmediately: false))
    },
    .op("output(at:)") { up, _ in up.output(at: 5) },
    .op("output(in:)") { up, _ in up.output(in: 0..<5) },
]

let combiningReleaseCases: [ReleaseCase] = [
    .op("merge(with:) Merge") { up, t in up.merge(with: Just(0).map { t.pass($0) }) },
    .op("Merge3") { up, _ in up.merge(with: Just(0), Just(1)) },
    .op("Merge4") { up, _ in up.merge(with: Just(0), Just(1), Just(2)) },
    .op("Merge5") { up, _ in up.merge(with: Just(0), Just(1), Just(2), Just(3)) },
    .op("Merge6") { up, _ in up.merge(with: Just(0), Just(1), Just(2), Just(3), Just(4)) },
    .op("Merge7") { up, _ in up.merge(with: Just(0), Just(1), Just(2), Just(3), Just(4), Just(5)) },
    .op("Merge8") { up, _ in up.merge(with: Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)) },
    .op("MergeMany") { up, _ in Publishers.MergeMany(up, Just(0).eraseToAnyPublisher()) },
    .op("zip Zip") { up, _ in up.zip([7, 8, 9, 10].publisher) },
    .op("zip(_:_:) transform") { up, t in up.zip([7, 8, 9, 10].publisher) { t.pass($0 + $1) } },
    .op("Zip3") { up, t in up.zip([7, 8].publisher, [9, 10].publisher) { t.pass($0 + $1 + $2) } },
    .op("Zip4") { up, t in up.zip([7].publisher, [8].publisher, [9].publisher) { t.pass($0 + $1 + $2 + $3) } },
    .op("combineLatest CombineLatest") { up, t in up.combineLatest(Just("x")) { t.pass("\($0)\($1)") } },
    .op("CombineLatest3") { up, t in up.combineLatest(Just(1), Just(2)) { t.pass($0 + $1 + $2) } },
    .op("CombineLatest4") { up, t in up.combineLatest(Just(1), Just(2), Just(3)) { t.pass($0 + $1 + $2 + $3) } },
    .op("flatMap") { up, t in up.flatMap { t.pass(Just($0)) } },
    .op("flatMap(maxPublishers:)") { up, t in up.flatMap(maxPublishers: .max(1)) { t.pass(Just($0)) } },
    .op("flatMap, failing inner") { up, t in up.flatMap { t.pass(Just($0).setFailureType(to: CoreTestError.self)) } },
    .op("flatMap, failing upstream") { up, t in failable(up).flatMap { t.pass(Just($0)) } },
    .op("switchToLatest") { up, t in up.map { t.pass(Just($0)) }.switchToLatest() },
    .op("switchToLatest, failing inner") { up, t in
        up.map { t.pass(Just($0).setFailureType(to: CoreTestError.self)) }.switchToLatest()
    },
    .op("switchToLatest, failing upstream") { up, t in failable(up).map { t.pass(Just($0)) }.switchToLatest() },
]

let errorAndUtilityReleaseCases: [ReleaseCase] = [
    .op("catch") { up, t in failable(up).tryMap { $0 }.catch { _ in t.pass(Just(0)) } },
    .op("tryCatch") { up, t in failable(up).tryCatch { _ in t.pass(Just(0)) } },
    .op("retry") { up, t in failable(up).map { t.pass($0) }.retry(1) },
    .op("assertNoFailure") { up, t in failable(up).map { t.pass($0) }.assertNoFailure() },
    .op("encode") { up, t in up.map { t.pass($0) }.encode(encoder: JSONEncoder()) },
    .op("decode") { up, _ in up.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder()) },
    .op("share") { up, t in up.map { t.pass($0) }.share() },
    .op("multicast(_:) autoconnect") { up, t in
        up.multicast { t.pass(PassthroughSubject<Int, Never>()) }.autoconnect()
    },
    .op("multicast(subject:) autoconnect") { up, t in
        up.map { t.pass($0) }.multicast(subject: PassthroughSubject()).autoconnect()
    },
    .op("makeConnectable autoconnect") { up, t in up.map { t.pass($0) }.makeConnectable().autoconnect() },
    ReleaseCase(name: "makeConnectable connect()") { rig, t in
        let connectable = rig.subject.map { t.pass($0) }.makeConnectable()
        rig.sink(connectable, t)
        rig.connect(connectable)
    },
    ReleaseCase(name: "multicast connect()") { rig, t in
        let multicast = rig.subject.multicast { t.pass(PassthroughSubject<Int, Never>()) }
        rig.sink(multicast, t)
        rig.connect(multicast)
    },
    .op("print") { up, t in up.map { t.pass($0) }.print("", to: DiscardingStream()) },
    .op("handleEvents") { up, t in
        up.handleEvents(
            receiveSubscription: { _ in _ = t }, receiveOutput: { _ in _ = t }, receiveCompletion: { _ in _ = t },
            receiveCancel: { _ = t }, receiveRequest: { _ in _ = t })
    },
    .op("breakpoint") { up, t in
        up.breakpoint(
            receiveSubscription: { _ in t.pass(false) }, receiveOutput: { _ in t.pass(false) },
            receiveCompletion: { _ in t.pass(false) })
    },
    .op("breakpointOnError") { up, t in failable(up).map { t.pass($0) }.breakpointOnError() },
    .op("buffer byRequest dropOldest") { up, _ in up.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest) },
    .op("buffer keepFull dropNewest") { up, _ in up.buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest) },
    .op("buffer customError") { up, t in
        failable(up).buffer(size: 1, prefetch: .keepFull, whenFull: .customError { t.pass(failure) })
    },
]

let timeReleaseCases: [ReleaseCase] = [
    .timed("debounce") { up, _, s in up.debounce(for: .seconds(1), scheduler: s) },
    .timed("throttle latest") { up, _, s in up.throttle(for: .seconds(1), scheduler: s, latest: true) },
    .timed("throttle first") { up, _, s in up.throttle(for: .seconds(1), scheduler: s, latest: false) },
    // The value waiting out its delay is a scheduled action that holds the subscription.
    .timed("delay") { up, _, s in up.delay(for: .seconds(1), scheduler: s) }.heldUntilPendingActionsRun(),
    .timed("timeout") { up, _, s in up.timeout(.seconds(5), scheduler: s) },
    .timed("timeout customError") { up, t, s in
        failable(up).timeout(.seconds(5), scheduler: s) { t.pass(failure) }
    },
    .timed("receive(on:)") { up, _, s in up.receive(on: s) },
    .timed("subscribe(on:)") { up, _, s in up.subscribe(on: s) },
    .timed("measureInterval") { up, _, s in up.measureInterval(using: s) },
    .timed("collect byTime") { up, _, s in up.collect(.byTime(s, .seconds(1))) },
    .timed("collect byTimeOrCount") { up, _, s in up.collect(.byTimeOrCount(s, .seconds(1), 2)) },
]

/// A text stream that drops what it is given.
private struct DiscardingStream: TextOutputStream {
    mutating func write(_ string: String) {}
}
