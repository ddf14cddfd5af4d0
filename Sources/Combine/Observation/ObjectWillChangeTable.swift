// SPDX-License-Identifier: Apache-2.0
import CombineSynchronization
import Synchronization

/// The `objectWillChange` publishers of observable objects that have no `@Published`
/// property to keep theirs in, keyed by object identity.
///
/// An entry holds its object weakly. A dead object's entry is recognised by its nil
/// reference: replaced when a new object reuses the address, and dropped by the sweep that
/// runs whenever the table has doubled since the last one, so the table holds at most
/// about twice the number of live objects it serves.
///
/// `@unchecked Sendable`: `entries` and `sweepAt` are read and written only with `lock` held.
final class ObjectWillChangeTable: @unchecked Sendable {
    static let shared = ObjectWillChangeTable()

    /// Unchecked: the table never calls into `object`; it only compares its identity and
    /// tests it for nil, both safe from any thread through a weak reference.
    private struct Entry: @unchecked Sendable {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private static let minimumSweepSize = 16

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var sweepAt = ObjectWillChangeTable.minimumSweepSize

    /// The publisher of `object`, made on first request.
    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let key = ObjectIdentifier(object)
        // The publishers of objects gone, released after the lock: a publisher's subscribers
        // may go with it, and their deinits may ask this table for a publisher.
        var swept: [ObjectIdentifier: Entry] = [:]
        var replaced: Entry?
        let publisher: ObservableObjectPublisher = lock.withLock {
            if let entry = entries[key], entry.object === object {
                return entry.publisher
            }
            if entries.count >= sweepAt {
                swap(&swept, &entries)
                entries = swept.filter { $0.value.object != nil }
                sweepAt = max(Self.minimumSweepSize, entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            replaced = entries.updateValue(Entry(object: object, publisher: publisher), forKey: key)
            return publisher
        }
        withExtendedLifetime(swept) {}
        withExtendedLifetime(replaced) {}
        return publisher
    }

    /// How many entries the table holds, live or not yet swept.
    var count: Int { lock.withLock { entries.count } }
}
