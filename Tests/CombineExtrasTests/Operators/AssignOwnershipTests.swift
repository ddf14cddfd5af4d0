// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("assign(to:on:ownership:)")
struct AssignOwnershipTests {
    private final class Target {
        var value = 0
    }

    @Test(arguments: [ObjectOwnership.strong, .weak, .unowned])
    func assignsEachValue(ownership: ObjectOwnership) {
        let upstream = PassthroughSubject<Int, Never>()
        let target = Target()
        let cancellable = upstream.assign(to: \.value, on: target, ownership: ownership)
        upstream.send(1)
        #expect(target.value == 1)
        upstream.send(2)
        #expect(target.value == 2)
        cancellable.cancel()
        upstream.send(3)
        #expect(target.value == 2)
    }

    /// Assigns the upstream's values to a new target that nothing but the assignment can
    /// keep alive; `target()` tells whether it still lives.
    private func assignToTransientTarget<P: Publisher<Int, Never>>(
        _ upstream: P, ownership: ObjectOwnership
    ) -> (cancellable: AnyCancellable, target: () -> Target?) {
        let target = Target()
        let cancellable = upstream.assign(to: \.value, on: target, ownership: ownership)
        return (cancellable, { [weak target] in target })
    }

    @Test(arguments: [true, false])
    func strongKeepsTheObjectAliveUntilTheEnd(endsByCancel: Bool) {
        let upstream = PassthroughSubject<Int, Never>()
        let assignment = assignToTransientTarget(upstream, ownership: .strong)
        upstream.send(4)
        #expect(assignment.target()?.value == 4)
        if endsByCancel { assignment.cancellable.cancel() } else { upstream.send(completion: .finished) }
        #expect(assignment.target() == nil)
    }

    @Test(arguments: [ObjectOwnership.weak, .unowned])
    func weakAndUnownedDoNotKeepTheObjectAlive(ownership: ObjectOwnership) {
        let upstream = TestPublisher<Int, Never>()
        let assignment = assignToTransientTarget(upstream, ownership: ownership)
        #expect(assignment.target() == nil)
        #expect(upstream.hasSubscriber)
        assignment.cancellable.cancel()
    }

    @Test func weakIgnoresValuesOnceTheObjectIsGoneAndStaysSubscribed() {
        let upstream = TestPublisher<Int, Never>()
        let assignment = assignToTransientTarget(upstream, ownership: .weak)
        #expect(assignment.target() == nil)
        upstream.send(1)  // nothing to assign to: ignored
        #expect(upstream.hasSubscriber)
        assignment.cancellable.cancel()
        #expect(!upstream.hasSubscriber)
    }

    @Test func theSubscriberAsksForUnlimitedDemand() {
        let upstream = TestPublisher<Int, Never>()
        let target = Target()
        let cancellable = upstream.assign(to: \.value, on: target, ownership: .weak)
        #expect(upstream.requests == [.unlimited])
        cancellable.cancel()
        #expect(upstream.cancelCount == 1)
    }

    @Test func appleOverloadStillResolvesWithoutOwnership() {
        let target = Target()
        let cancellable: AnyCancellable = Just(5).assign(to: \.value, on: target)
        #expect(target.value == 5)
        cancellable.cancel()
    }
}
