// SPDX-License-Identifier: Apache-2.0
import Combine

/// The subject inside a relay: what both relays do with it, written once. Values accepted go
/// to the subject, subscribers attach to it, and when the relay is deallocated (taking this
/// value with it) the subject finishes its subscribers — the only way a relay completes.
///
/// Non-copyable, so that its `deinit` runs exactly when the owning relay goes away, and it
/// costs no allocation of its own.
struct RelaySubject<Storage: Subject>: ~Copyable where Storage.Failure == Never {
    let subject: Storage

    init(_ subject: Storage) {
        self.subject = subject
    }

    deinit {
        subject.send(completion: .finished)
    }

    /// Sends `value` to the subject's subscribers.
    func accept(_ value: Storage.Output) {
        subject.send(value)
    }

    /// Attaches `subscriber` to the subject.
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Storage.Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }
}
