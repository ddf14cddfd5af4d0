// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Dispatch
import Testing

@testable import Combine

private final class Contact: ObservableObject {
    @Published var name: String
    @Published var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    func haveBirthday() { age += 1 }
}

/// An observable object with no `@Published` property: it announces changes by hand.
private final class Counter: ObservableObject {
    private(set) var count = 0

    func increment() {
        objectWillChange.send()
        count += 1
    }
}

private class Account: ObservableObject {
    @Published var balance = 0
    var plain = "not published"
}

private final class SavingsAccount: Account {
    @Published var rate = 1
}

private class Plain: ObservableObject {}

/// Shared between threads that only read `objectWillChange`; `@Published` storage is
/// thread-safe.
private final class SharedModel: ObservableObject, @unchecked Sendable {
    @Published var value = 0
}

private final class SharedPlain: ObservableObject, Sendable {}

private final class PlainSubclass: Plain {
    @Published var level = 0
}

@Suite("ObservableObject")
struct ObservableObjectTests {
    @Test func objectWillChangeFiresOncePerChangeBeforeTheNewValueIsVisible() {
        let john = Contact(name: "John Appleseed", age: 24)
        var log: [String] = []
        let willChange = john.objectWillChange.sink { log.append("will change, age \(john.age)") }
        let ages = john.$age.dropFirst().sink { log.append("$age \($0), age \(john.age)") }
        john.haveBirthday()
        #expect(john.age == 25)
        john.name = "John"
        #expect(
            log == [
                "will change, age 24", "$age 25, age 24",
                "will change, age 25",
            ])
        _ = (willChange, ages)
    }

    @Test func objectWillChangeIsTheSameInstanceOnEveryAccess() {
        let john = Contact(name: "John", age: 1)
        let first = john.objectWillChange
        #expect(first === john.objectWillChange)
        john.age = 2
        #expect(first === john.objectWillChange)
        #expect(first !== Contact(name: "Jane", age: 1).objectWillChange)
    }

    @Test func objectWithoutPublishedPropertiesKeepsOnePublisher() {
        let counter = Counter()
        #expect(counter.objectWillChange === counter.objectWillChange)
        let subscriber = TestSubscriber<Void, Never>()
        counter.objectWillChange.subscribe(subscriber)
        counter.increment()
        counter.increment()
        #expect(subscriber.values.count == 2)
        #expect(Counter().objectWillChange !== counter.objectWillChange)
    }

    @Test func subclassAddingPublishedFiresForOwnAndInheritedProperties() {
        let savings = SavingsAccount()
        let signals = objectWillChangeSignals(of: savings) {
            savings.rate = 2
            savings.balance = 100
            savings.plain = "changed"  // not published
        }
        #expect(signals == 2)
    }

    @Test func subclassOfClassWithoutPublishedPropertiesKeepsOnePublisher() {
        let object = PlainSubclass()
        #expect(objectWillChangeSignals(of: object) { object.level = 1 } == 1)
    }

    @Test func concurrentFirstAccessesAgreeOnOnePublisher() async {
        await offThePool {
            for _ in 0..<50 {
                let model = SharedModel()
                let plain = SharedPlain()
                let seen = LockedValue<[ObjectIdentifier]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { index in
                    let publisher = index.isMultiple(of: 2) ? model.objectWillChange : plain.objectWillChange
                    seen.append(ObjectIdentifier(publisher))
                }
                #expect(Set(seen.current).count == 2)
            }
        }
    }

    @Test func objectWillChangeLivesAsLongAsTheObject() {
        weak var weakContact: Contact?
        weak var weakPublisher: ObservableObjectPublisher?
        do {
            let contact = Contact(name: "A", age: 1)
            weakContact = contact
            weakPublisher = contact.objectWillChange
            #expect(weakPublisher != nil)
        }
        #expect(weakContact == nil)
        #expect(weakPublisher == nil)
    }

    @Test func sideTableDoesNotGrowWithDeadObjects() {
        weak var firstPublisher: ObservableObjectPublisher?
        do {
            let first = Counter()
            firstPublisher = first.objectWillChange
        }
        // Batches of live objects, so that dead entries are not simply replaced by new
        // objects at the same address and the table has to sweep.
        for _ in 0..<50 {
            let batch = (0..<20).map { _ in Counter() }
            for counter in batch { counter.increment() }
        }
        // Other tests running at the same time may hold a few live entries.
        #expect(ObjectWillChangeTable.shared.count < 100)
        #expect(firstPublisher == nil)
    }

    @Test func aSubscriberSeesTheOldValueInsideObjectWillChange() {
        let account = Account()
        var balances: [Int] = []
        let cancellable = account.objectWillChange.sink { balances.append(account.balance) }
        account.balance = 10
        account.balance = 20
        #expect(balances == [0, 10])
        _ = cancellable
    }

    /// Apple's `ObservableObjectPublisher` does not count demand: nothing goes out before the
    /// first request, and after it every signal does (this subscriber, which asked for one,
    /// therefore records signals beyond its demand).
    @Test func observableObjectPublisherSignalsEveryChangeAfterTheFirstRequest() {
        let publisher = ObservableObjectPublisher()
        let subscriber = TestSubscriber<Void, Never>(initialDemand: .none)
        publisher.subscribe(subscriber)
        publisher.send()
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(subscriber.values.count == 3)
        #expect(subscriber.completion == nil)
        subscriber.cancel()
        publisher.send()
        #expect(subscriber.values.count == 3)
    }
}

/// Counts the signals of `object.objectWillChange` while `change` runs, after checking that
/// the property gives the same publisher on every access.
private func objectWillChangeSignals<Object: ObservableObject>(of object: Object, during change: () -> Void) -> Int
where Object.ObjectWillChangePublisher == ObservableObjectPublisher {
    let publisher = object.objectWillChange
    #expect(publisher === object.objectWillChange)
    var signals = 0
    let cancellable = publisher.sink { signals += 1 }
    change()
    cancellable.cancel()
    return signals
}
