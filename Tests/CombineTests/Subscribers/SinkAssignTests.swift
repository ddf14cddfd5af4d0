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
}
