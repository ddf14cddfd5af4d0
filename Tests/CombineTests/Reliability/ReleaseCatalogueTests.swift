// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

/// Every public publisher, operator and subscriber: the specialised overloads of `Just`,
/// `Optional.Publisher`, `Result.Publisher` and `Publishers.Sequence` return those same
/// publishers, which are in the catalogue as sources.
let releaseCatalogue: [ReleaseCase] =
    mappingReleaseCases + reducingReleaseCases + sequenceReleaseCases + combiningReleaseCases
    + errorAndUtilityReleaseCases + timeReleaseCases + sourceReleaseCases + subscriberReleaseCases

@Suite("Release: every publisher, operator and subscriber lets go of its pipeline")
struct ReleaseCatalogueTests {
    /// A pipeline built with the token captured in every closure it takes, driven, then
    /// completed or cancelled: afterwards the token (so every closure), the sink, the
    /// subscriber the pipeline held and the pipeline's last subscription are gone, while the
    /// source and the cancellable are still alive.
    @Test(arguments: releaseCatalogue.flatMap { entry in entry.endings.map { (entry, $0) } })
    func pipelineIsReleased(_ entry: ReleaseCase, _ ending: ReleaseEnding) async {
        await offThePool {
            let rig = ReleaseRig(ending: ending)
            weak var weakToken: LifetimeToken?
            do {
                let token = LifetimeToken()
                weakToken = token
                entry.build(rig, token)
            }
            rig.run()
            if ending == .completion {
                #expect(rig.completionCount == rig.sinkCount, "\(entry.name): the pipeline did not complete")
            }
            #expect(weakToken == nil, "\(entry.name): a closure of the pipeline is still alive after \(ending)")
            if ending == .cancel, entry.heldByPendingActions {
                #expect(rig.scheduler.pendingActionCount > 0)
                rig.scheduler.advance(by: .seconds(60))
            }
            #expect(rig.watch.survivors == [], "\(entry.name): still alive after \(ending)")
            withExtendedLifetime(rig) {}
        }
    }

    @Test func catalogueNamesAreUnique() {
        #expect(Set(releaseCatalogue.map(\.name)).count == releaseCatalogue.count)
    }

    /// `publisher.values`: once the loop ends — the subject finished, or the task iterating
    /// was cancelled — its subscription and the pipeline's closures are released.
    @Test(arguments: ReleaseEnding.allCases)
    func valuesReleasesItsSubscription(_ ending: ReleaseEnding) async {
        let subject = PassthroughSubject<Int, Never>()
        let watch = ReleaseWatch()
        let (requests, requested) = AsyncStream.makeStream(of: Void.self)
        var nextRequest = requests.makeAsyncIterator()
        weak var weakToken: LifetimeToken?
        let loop: Task<[Int], Never>
        do {
            let token = LifetimeToken()
            weakToken = token
            loop = Task {
                let values = Tapped(
                    upstream: subject.handleEvents(receiveRequest: { _ in requested.yield(token.pass(())) })
                        .map { token.pass($0) },
                    watch: watch
                ).values
                var received: [Int] = []
                for await value in values { received.append(value) }
                return received
            }
        }
        await nextRequest.next()
        subject.send(1)
        await nextRequest.next()
        switch ending {
        case .completion: subject.send(completion: .finished)
        case .cancel: loop.cancel()
        }
        #expect(await loop.value == [1])
        #expect(weakToken == nil)
        #expect(watch.survivors == [])
        withExtendedLifetime(subject) {}
    }

    /// `assign(to:on:)` holds its object strongly (Apple's too) but makes no cycle: dropping
    /// the object and the cancellable frees it, while the subject lives on.
    @Test func assignToOnFreesTheObjectWithTheCancellable() {
        final class Target {
            var value = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        subject.send(3)
        #expect(weakTarget?.value == 3)
        cancellable = nil
        #expect(weakTarget == nil)
        _ = cancellable
        withExtendedLifetime(subject) {}
    }

    /// A subject subscribed to a publisher and held only by the returned cancellable: the
    /// cancel drops the last reference to the subject, whose deinit cancels its upstream —
    /// the very subscription being cancelled. (This deadlocked — trapped, with the
    /// earlier `Mutex` lock — while the subject was released under the subscription's lock.)
    @Test func cancellingTheOnlyHolderOfASubscribedSubject() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let cancellable: AnyCancellable
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            cancellable = upstream.subscribe(subject)
        }
        #expect(weakSubject != nil)
        cancellable.cancel()
        #expect(weakSubject == nil)
        #expect(upstream.cancelCount == 1)
    }
}
