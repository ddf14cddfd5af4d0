// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

/// A pipeline built on a subject source with a probe captured in its closures; `finish` ends
/// it with a completion (by default the source's).
private final class ReleaseRig {
    let source = PassthroughSubject<Int, Never>()
    var kept: [Any] = []
    lazy var finish: () -> Void = { [source] in source.send(completion: .finished) }
}

private struct ReleaseEntry: Sendable, CustomTestStringConvertible {
    let name: String
    let build: @Sendable (ReleaseRig, LifetimeToken) -> AnyPublisher<Int, Never>

    var testDescription: String { name }
}

private let sourcesCatalogue: [ReleaseEntry] = [
    ReleaseEntry(name: "AnyPublisher.create") { rig, probe in
        let source = rig.source
        return AnyPublisher<Int, Never>.create { subscriber in
            let feed = source.sink(
                receiveCompletion: { subscriber.send(completion: $0) }, receiveValue: { subscriber.send($0) })
            return AnyCancellable { probe.pass(feed).cancel() }
        }
    },
    ReleaseEntry(name: "amb") { rig, probe in
        rig.source.map { probe.pass($0) }.amb(Empty(completeImmediately: false)).eraseToAnyPublisher()
    },
    ReleaseEntry(name: "amb(with:)") { rig, probe in
        rig.source.map { probe.pass($0) }.amb(
            with: Empty(completeImmediately: false), Empty(completeImmediately: false)
        )
        .eraseToAnyPublisher()
    },
    ReleaseEntry(name: "Collection.amb") { rig, probe in
        [
            rig.source.map { probe.pass($0) }.eraseToAnyPublisher(),
            Empty(completeImmediately: false).eraseToAnyPublisher(),
        ]
        .amb()
    },
    ReleaseEntry(name: "withLatestFrom(_:resultSelector:)") { rig, probe in
        let other = CurrentValueSubject<Int, Never>(1)
        rig.kept.append(other)
        return rig.source.withLatestFrom(other) { probe.pass($0 + $1) }.eraseToAnyPublisher()
    },
    ReleaseEntry(name: "withLatestFrom(_:)") { rig, probe in
        rig.source.map { probe.pass($0) }.withLatestFrom(Just(1)).eraseToAnyPublisher()
    },
    ReleaseEntry(name: "withLatestFrom(_:_:)") { rig, probe in
        let other = CurrentValueSubject<Int, Never>(1)
        rig.kept.append(other)
        return rig.source.withLatestFrom(other, Just(2)) { probe.pass($0 + $1.0 + $1.1) }.eraseToAnyPublisher()
    },
    ReleaseEntry(name: "withLatestFrom(_:_:_:)") { rig, probe in
        rig.source.withLatestFrom(Just(1), Just(2), Just(3)) { probe.pass($0 + $1.0) }.eraseToAnyPublisher()
    },
    ReleaseEntry(name: "share(replay:)") { rig, probe in
        rig.source.map { probe.pass($0) }.share(replay: 1).eraseToAnyPublisher()
    },
    ReleaseEntry(name: "ReplaySubject") { rig, probe in
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        rig.kept.append(rig.source.subscribe(subject))
        return subject.map { probe.pass($0) }.eraseToAnyPublisher()
    },
    ReleaseEntry(name: "PassthroughRelay") { rig, probe in
        let relay = PassthroughRelay<Int>()
        rig.kept.append(relay)
        rig.kept.append(rig.source.subscribe(relay))
        rig.finish = { [unowned rig] in rig.kept.removeAll() }  // a relay finishes when it goes away
        return relay.map { probe.pass($0) }.eraseToAnyPublisher()
    },
    ReleaseEntry(name: "CurrentValueRelay") { rig, probe in
        let relay = CurrentValueRelay(0)
        rig.kept.append(relay)
        rig.kept.append(rig.source.subscribe(relay))
        rig.finish = { [unowned rig] in rig.kept.removeAll() }
        return relay.map { probe.pass($0) }.eraseToAnyPublisher()
    },
]

@Suite("Release: the CombineExtras sources and subjects let go of their pipeline")
struct SourcesReleaseCatalogueTests {
    /// Driven, then completed or cancelled: afterwards the probe (so every closure, the
    /// sink's included) is gone while the source is still alive. The sink is then held by
    /// nothing but its cancellable, which keeps it until it cancels it: gone at once after a
    /// cancel, after a completion only once the cancellable is dropped.
    @Test(arguments: sourcesCatalogue, [false, true])
    fileprivate func pipelineIsReleased(_ entry: ReleaseEntry, _ byCancel: Bool) async {
        await offThePool {
            let rig = ReleaseRig()
            let received = LockedValue<[Int]>([])
            let completions = LockedValue(0)
            weak var weakProbe: LifetimeToken?
            weak var weakSink: Subscribers.Sink<Int, Never>?
            var cancellable: AnyCancellable?
            do {
                let probe = LifetimeToken()
                weakProbe = probe
                let sink = Subscribers.Sink<Int, Never>(
                    receiveCompletion: { _ in completions.increment() },
                    receiveValue: { received.append(probe.pass($0)) })
                weakSink = sink
                entry.build(rig, probe).subscribe(sink)
                cancellable = AnyCancellable(sink)
            }
            rig.source.send(1)
            rig.source.send(2)
            #expect(!received.current.isEmpty, "\(entry.name): no value went through")
            if byCancel {
                cancellable?.cancel()
            } else {
                rig.finish()
                #expect(completions.current == 1, "\(entry.name): the pipeline did not complete")
            }
            #expect(weakProbe == nil, "\(entry.name): a closure is still alive")
            if !byCancel {
                withExtendedLifetime(cancellable) {
                    #expect(weakSink != nil, "\(entry.name): the cancellable should keep its sink until it cancels")
                }
                cancellable = nil
            }
            #expect(weakSink == nil, "\(entry.name): the pipeline still holds the sink")
            withExtendedLifetime(rig) {}
        }
    }
}
