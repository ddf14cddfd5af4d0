import Synchronization

/// The `objectWillChange` publishers of observable objects that have no `@Published`
/// property to keep theirs in, keyed by object identity.
///
/// An entry holds its object weakly. A dead object's entry is recognised by its nil
/// reference: replaced when a new object reuses the address, and dropped by the sweep that
/// runs whenever the table has doubled since the last one, so the table holds at most
/// about twice the number of live objects it serves.
final class ObjectWillChangeTable: Sendable {
    static let shared = ObjectWillChangeTable()

    /// Unchecked: the table never calls into `object`; it only compares its identity and
    /// tests it for nil, both safe from any thread through a weak reference.
    private struct Entry: @unchecked Sendable {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var sweepAt = ObjectWillChangeTable.minimumSweepSize
    }

    private static let minimumSweepSize = 16

    private let state = Mutex(State())

    /// The publisher of `object`, made on first request.
    func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let key = ObjectIdentifier(object)
        return state.withLock { state in
            if let entry = state.entries[key], entry.object === object {
                return entry.publisher
            }
            if state.entries.count >= state.sweepAt {
                state.entries = state.entries.filter { $0.value.object != nil }
                state.sweepAt = max(Self.minimumSweepSize, state.entries.count * 2)
            }
            let publisher = ObservableObjectPublisher()
            state.entries[key] = Entry(object: object, publisher: publisher)
            return publisher
        }
    }

    /// How many entries the table holds, live or not yet swept.
    var count: Int { state.withLock { $0.entries.count } }
}
