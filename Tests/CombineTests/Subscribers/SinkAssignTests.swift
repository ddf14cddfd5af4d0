// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

private struct Failure: Error, Equatable {
    let code: Int
}

@Suite("Sink, Assign")
struct SinkAssignTests {
    final class Token {}

    final class Model {
        var value = 0
    }

    @Test func sinkRequestsUnlimited() {
        let upstream = TestPublisher<Int, Failure>()
        var received: [Int] = []
        var completion: Subscribers.Completion<Failure>?
        let cancellable = upstream.sink(receiveCompletion: { completion = $0 }, receiveValue: { received.append($0) })
        #expect(upstream.requests == [.unlimited])
        upstream.send(1)
        upstream.send(completion: .failure(Failure(code: 1)))
        #expect(received == [1])
        #expect(completion == .failure(Failure(code: 1)))
        cancellable.cancel()
    }

    @Test func sinkReleasesItsClosuresOnCompletionAndOnCancel() {
        weak var afterCompletion: Token?
        weak var afterCancel: Token?
        let subject = PassthroughSubject<Int, Never>()
        let first: AnyCancellable
        let second: AnyCancellable
        do {
            let token = Token()
            afterCompletion = token
            first = Just(1).sink { _ in _ = token }
        }
        do {
            let token = Token()
            afterCancel = token
            second = subject.sink { _ in _ = token }
        }
        #expect(afterCompletion == nil)
        #expect(afterCancel != nil)
        second.cancel()
        #expect(afterCancel == nil)
        withExtendedLifetime(first) {}
    }

    @Test func sinkCancelsASecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(second.cancelCount == 1)
        #expect(first.cancelCount == 0)
        sink.cancel()
        #expect(first.cancelCount == 1)
    }

    @Test func assignWritesEveryValue() {
        let model = Model()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.assign(to: \.value, on: model)
        subject.send(3)
        subject.send(4)
        #expect(model.value == 4)
        cancellable.cancel()
        subject.send(5)
        #expect(model.value == 4)
    }

    @Test func assignHoldsTheObjectUntilCompletionOrCancel() {
        weak var weakModel: Model?
        let subject = PassthroughSubject<Int, Never>()
        let assign: Subscribers.Assign<Model, Int>
        do {
            let model = Model()
            weakModel = model
            assign = Subscribers.Assign(object: model, keyPath: \.value)
            subject.subscribe(assign)
        }
        #expect(weakModel != nil)
        #expect(assign.object != nil)
        subject.send(completion: .finished)
        #expect(weakModel == nil)
        #expect(assign.object == nil)

        weak var cancelled: Model?
        let other = PassthroughSubject<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let model = Model()
            cancelled = model
            cancellable = other.assign(to: \.value, on: model)
        }
        #expect(cancelled != nil)
        cancellable.cancel()
        #expect(cancelled == nil)
    }
    @Test func requestsUnlimitedOnceAndDeliversEverything() {
        let probe = ProbePublisher<Int>()
        let values = LockedValue<[Int]>([])
        let completions = LockedValue(0)
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in completions.withLock { $0 += 1 } }, receiveValue: { values.append($0) })
        probe.subscribe(sink)
        #expect(probe.subscription?.requests == [.unlimited])
        #expect(probe.subscription?.send(1) == Subscribers.Demand.none)
        probe.subscription?.send(2)
        probe.subscription?.finish()
        #expect(values.current == [1, 2])
        #expect(completions.current == 1)
    }

    @Test func releasesItsSubscriptionAfterCompletion() {
        let probe = ProbePublisher<Int>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        probe.subscribe(sink)
        #expect(probe.subscription != nil)  // held by the sink while live
        probe.subscription?.finish()
        #expect(probe.subscription == nil)
        withExtendedLifetime(sink) {}
    }

    @Test func releasesItsSubscriptionAfterCancelAndCancelsItOnce() {
        let probe = ProbePublisher<Int>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        probe.subscribe(sink)
        weak let subscription = probe.subscription
        #expect(subscription != nil)
        sink.cancel()
        sink.cancel()
        #expect(probe.subscription == nil)
        #expect(subscription == nil)
        withExtendedLifetime(sink) {}
    }

    @Test func closuresAreReleasedAfterCompletionWhileTheSinkLives() {
        weak var token: LifetimeToken?
        let probe = ProbePublisher<Int>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let captured = LifetimeToken()
            token = captured
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(captured) {} },
                receiveValue: { _ in withExtendedLifetime(captured) {} })
        }
        probe.subscribe(sink)
        probe.subscription?.send(1)
        #expect(token != nil)
        probe.subscription?.finish()
        #expect(token == nil)
        withExtendedLifetime(sink) {}
    }

    @Test func closuresAreReleasedAfterCancelWhileTheSinkLives() {
        weak var token: LifetimeToken?
        let subject = PassthroughSubject<Int, Never>()
        let sink: Subscribers.Sink<Int, Never>
        do {
            let captured = LifetimeToken()
            token = captured
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(captured) {} },
                receiveValue: { _ in withExtendedLifetime(captured) {} })
        }
        subject.subscribe(sink)
        #expect(token != nil)
        sink.cancel()
        #expect(token == nil)
        withExtendedLifetime(sink) {}
    }

    @Test func nothingArrivesAfterCancel() {
        let values = LockedValue<[Int]>([])
        let completions = LockedValue(0)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink(
            receiveCompletion: { _ in completions.withLock { $0 += 1 } }, receiveValue: { values.append($0) })
        subject.send(1)
        cancellable.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(values.current == [1])
        #expect(completions.current == 0)
    }

    @Test func aSecondSubscriptionIsCancelledAndNotAskedForAnything() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = ProbePublisher<Int>()
        let second = ProbePublisher<Int>()
        first.subscribe(sink)
        let firstSubscription = first.subscription
        second.subscribe(sink)
        // The sink cancelled the extra subscription and kept no reference to it.
        #expect(second.subscription == nil)
        #expect(firstSubscription?.requests == [.unlimited])
        #expect(firstSubscription?.cancelCount == 0)
        sink.cancel()
        #expect(firstSubscription?.cancelCount == 1)
    }

    @Test func aSubscriptionAfterCompletionIsCancelled() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        Just(1).subscribe(sink)
        let upstream = TestPublisher<Int, Never>()
        upstream.subscribe(sink)
        #expect(upstream.cancelCount == 1)
        #expect(upstream.requests.isEmpty)
    }
    final class Target {
        var value = 0
    }

    @Test func requestsUnlimitedAndWritesEachValue() {
        let target = Target()
        let probe = ProbePublisher<Int>()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        probe.subscribe(assign)
        #expect(probe.subscription?.requests == [.unlimited])
        #expect(probe.subscription?.send(3) == Subscribers.Demand.none)
        #expect(target.value == 3)
        #expect(assign.object === target)
        #expect(assign.keyPath == \Target.value)
    }

    @Test func holdsTheObjectUntilCompletionThenReleasesItAndItsSubscription() {
        weak var weakTarget: Target?
        let probe = ProbePublisher<Int>()
        let assign: Subscribers.Assign<Target, Int>
        do {
            let target = Target()
            weakTarget = target
            assign = Subscribers.Assign(object: target, keyPath: \.value)
        }
        probe.subscribe(assign)
        probe.subscription?.send(1)
        #expect(weakTarget?.value == 1)
        probe.subscription?.finish()
        #expect(weakTarget == nil)
        #expect(assign.object == nil)
        #expect(probe.subscription == nil)
    }

    @Test func cancelReleasesTheObjectAndCancelsUpstream() {
        weak var weakTarget: Target?
        let upstream = TestPublisher<Int, Never>()
        let cancellable: AnyCancellable
        do {
            let target = Target()
            weakTarget = target
            cancellable = upstream.assign(to: \.value, on: target)
        }
        upstream.send(5)
        #expect(weakTarget?.value == 5)
        cancellable.cancel()
        #expect(weakTarget == nil)
        #expect(upstream.cancelCount == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        let first = TestPublisher<Int, Never>()
        let second = TestPublisher<Int, Never>()
        first.subscribe(assign)
        second.subscribe(assign)
        #expect(second.cancelCount == 1)
        #expect(second.requests.isEmpty)
        #expect(first.cancelCount == 0)
        first.send(9)
        #expect(target.value == 9)
    }

    @Test func nothingIsWrittenAfterCancelOrCompletion() {
        let target = Target()
        let subject = PassthroughSubject<Int, Never>()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        subject.subscribe(assign)
        subject.send(1)
        assign.cancel()
        subject.send(2)
        #expect(target.value == 1)
    }
}
