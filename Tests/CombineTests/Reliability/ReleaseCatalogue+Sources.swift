// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Foundation

// The publishers that start a pipeline, and the subscribers that end one. The rig keeps each
// source alive until the test's end: a source releases what it delivered to, not itself.

private final class Thermostat: ObservableObject {
    @Published var target = 20
}

private final class Display {
    var value = 0
}

/// A source that finishes on its own: nothing to drive, nothing to finish.
private func selfCompleting<P: Publisher & SendableMetatype>(
    _ name: String, _ make: @escaping @Sendable (LifetimeToken) -> P
) -> ReleaseCase {
    ReleaseCase(name: name) { rig, token in
        let source = make(token)
        rig.keepAlive(source)
        rig.drive = {}
        rig.finish = {}
        rig.sink(source, token)
    }
}

let sourceReleaseCases: [ReleaseCase] = [
    selfCompleting("Just") { _ in Just(1) },
    selfCompleting("Empty") { _ in Empty<Int, Never>() },
    selfCompleting("Fail") { _ in Fail<Int, CoreTestError>(error: CoreTestError(code: 1)) },
    selfCompleting("Publishers.Sequence") { _ in [1, 2, 3].publisher },
    selfCompleting("Optional.Publisher") { _ in Optional.Publisher(1) },
    selfCompleting("Optional.Publisher(nil)") { _ in Optional<Int>.Publisher(nil) },
    selfCompleting("Result.Publisher") { _ in Result<Int, CoreTestError>.Publisher(1) },
    selfCompleting("Result.Publisher failure") { _ in Result<Int, CoreTestError>.Publisher(CoreTestError(code: 2)) },
    selfCompleting("Record(output:completion:)") { _ in Record<Int, Never>(output: [1, 2, 3], completion: .finished) },
    // Record runs its closure while it is made and keeps the recording, not the closure.
    selfCompleting("Record(_:)") { t in
        Record<Int, Never> { recording in
            recording.receive(t.pass(1))
            recording.receive(completion: .finished)
        }
    },
    // A Future runs its closure in `init` and keeps only its result (and, until it is
    // fulfilled, its subscribers): the closure and what it captured go at once.
    selfCompleting("Future fulfilled in init") { t in Future<Int, Never> { promise in promise(.success(t.pass(1))) } },
    ReleaseCase(name: "Future fulfilled later") { rig, t in
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise in fulfil = t.pass(promise) }
        rig.keepAlive(future)
        rig.drive = {}
        let promise = fulfil
        rig.finish = { promise?(.success(1)) }
        rig.sink(future, t)
    },
    // Deferred is a value that holds its closure for as long as it lives (Apple's does too):
    // here the value is dropped once subscribed, as a pipeline built inline drops it.
    ReleaseCase(name: "Deferred") { rig, t in
        rig.drive = {}
        rig.finish = {}
        rig.sink(Deferred { t.pass(Just(1)) }, t)
    },
    ReleaseCase(name: "PassthroughSubject") { rig, t in rig.sink(rig.subject, t) },
    ReleaseCase(name: "AnyPublisher") { rig, t in rig.sink(AnyPublisher(rig.subject), t) },
    ReleaseCase(name: "CurrentValueSubject") { rig, t in
        let subject = CurrentValueSubject<Int, Never>(0)
        rig.keepAlive(subject)
        rig.drive = { subject.send(1) }
        rig.finish = { subject.send(completion: .finished) }
        rig.sink(subject, t)
    },
    // The sources below never finish (Apple's neither): `prefix(3)` ends the stream in the
    // `.completion` ending, and cancels the source.
    ReleaseCase(name: "NotificationCenter.Publisher") { rig, t in
        let center = NotificationCenter()
        let name = Notification.Name("ReleaseCatalogue")
        rig.keepAlive(center)
        rig.drive = {
            center.post(name: name, object: nil)
            center.post(name: name, object: nil)
        }
        rig.finish = { center.post(name: name, object: nil) }
        rig.sink(center.publisher(for: name).map { t.pass($0.name) }.prefix(3), t)
    },
    ReleaseCase(name: "Published.Publisher") { rig, t in
        let thermostat = Thermostat()
        rig.keepAlive(thermostat)
        rig.drive = { thermostat.target = 21 }
        rig.finish = { thermostat.target = 22 }
        rig.sink(thermostat.$target.map { t.pass($0) }.prefix(3), t)
    },
    ReleaseCase(name: "ObservableObjectPublisher") { rig, t in
        let thermostat = Thermostat()
        rig.keepAlive(thermostat)
        rig.drive = { thermostat.target = 21 }
        rig.finish = {
            thermostat.target = 22
            thermostat.objectWillChange.send()
        }
        rig.sink(thermostat.objectWillChange.map { t.pass($0) }.prefix(3), t)
    },
    // The same two sources subscribed directly (the subscriber then holds their own
    // subscription): they never finish, so they are only cancelled.
    ReleaseCase(name: "NotificationCenter.Publisher, direct", endings: [.cancel]) { rig, t in
        let center = NotificationCenter()
        let name = Notification.Name("ReleaseCatalogue")
        rig.keepAlive(center)
        rig.drive = { center.post(name: name, object: nil) }
        rig.sink(center.publisher(for: name), t)
    },
    ReleaseCase(name: "Published.Publisher, direct", endings: [.cancel]) { rig, t in
        let thermostat = Thermostat()
        rig.keepAlive(thermostat)
        rig.drive = { thermostat.target = 21 }
        rig.sink(thermostat.$target, t)
    },
    // A timer fires only while its run loop runs, which a test does not do without waiting:
    // cancelled before its first tick only.
    ReleaseCase(name: "Timer.TimerPublisher", endings: [.cancel]) { rig, t in
        let timer = Timer.publish(every: 60, on: .current, in: .default)
        rig.keepAlive(timer)
        rig.sink(timer.map { t.pass($0) }, t)
        rig.connect(timer)
    },
]

let subscriberReleaseCases: [ReleaseCase] = [
    // Assign holds its object until the stream ends or is cancelled (Apple's does too), then
    // lets it go while the subject and the cancellable live on.
    ReleaseCase(name: "assign(to:on:)") { rig, t in
        let display = Display()
        rig.watch.watch(display, as: "the object assigned to")
        rig.keep(rig.tapped(rig.subject.map { t.pass($0) }).assign(to: \.value, on: display))
    },
    // `assign(to: &$property)` lives as long as the object that owns the property: ending it
    // early means dropping the object.
    ReleaseCase(name: "assign(to: &$property)") { rig, t in
        var thermostat: Thermostat? = Thermostat()
        if rig.ending == .cancel { rig.watch.watch(thermostat!, as: "the object owning the property") }
        rig.tapped(rig.subject.map { t.pass($0) }).assign(to: &thermostat!.$target)
        rig.onCancel { thermostat = nil }
    },
]
