import Combine
import CombineTesting
import Testing

/// Every operator, built between a subject and a sink, with a token captured in its closure
/// (and in the sink): once the subject completes — or the subscription is cancelled — the
/// whole chain must be released while the subject and the cancellable are still alive.
private typealias Build = @Sendable (AnyPublisher<Int, Never>, LifetimeToken) -> AnyPublisher<String, Never>

private struct Failure: Error {}

private let operators: [String: Build] = [
    "map": { up, token in
        up.map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "filter": { up, token in
        up.filter {
            _ = token
            return $0 > 0
        }.map(String.init).eraseToAnyPublisher()
    },
    "compactMap": { up, token in
        up.compactMap {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "tryMap": { up, token in
        up.tryMap {
            _ = token
            return "\($0)"
        }.replaceError(with: "").eraseToAnyPublisher()
    },
    "scan": { up, token in
        up.scan(0) {
            _ = token
            return $0 + $1
        }.map(String.init).eraseToAnyPublisher()
    },
    "removeDuplicates": { up, token in
        up.removeDuplicates {
            _ = token
            return $0 == $1
        }.map(String.init).eraseToAnyPublisher()
    },
    "drop(while:)": { up, token in
        up.drop {
            _ = token
            return $0 < 0
        }.map(String.init).eraseToAnyPublisher()
    },
    "prefix(while:)": { up, token in
        up.prefix {
            _ = token
            return $0 < 99
        }.map(String.init).eraseToAnyPublisher()
    },
    "dropFirst+prefix": { up, token in
        up.dropFirst().prefix(5).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "handleEvents": { up, token in
        up.handleEvents(receiveOutput: { _ in _ = token }).map(String.init).eraseToAnyPublisher()
    },
    "collect": { up, token in
        up.collect().map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "collect(2)": { up, token in
        up.collect(2).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "reduce": { up, token in
        up.reduce(0) {
            _ = token
            return $0 + $1
        }.map(String.init).eraseToAnyPublisher()
    },
    "count": { up, token in
        up.count().map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "contains(where:)": { up, token in
        up.contains {
            _ = token
            return $0 == 99
        }.map { "\($0)" }.eraseToAnyPublisher()
    },
    "last(where:)": { up, token in
        up.last {
            _ = token
            return $0 > 0
        }.map(String.init).eraseToAnyPublisher()
    },
    "max(by:)": { up, token in
        up.max {
            _ = token
            return $0 < $1
        }.map(String.init).eraseToAnyPublisher()
    },
    "merge": { up, token in
        up.merge(with: Just(0).setFailureType(to: Never.self)).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "zip": { up, token in
        up.zip([7, 8, 9, 10].publisher).map {
            _ = token
            return "\($0)\($1)"
        }.eraseToAnyPublisher()
    },
    "combineLatest": { up, token in
        up.combineLatest(Just("x")).map {
            _ = token
            return "\($0)\($1)"
        }.eraseToAnyPublisher()
    },
    "flatMap": { up, token in
        up.flatMap {
            _ = token
            return Just("\($0)")
        }.eraseToAnyPublisher()
    },
    "switchToLatest": { up, token in
        up.map {
            _ = token
            return Just("\($0)")
        }.switchToLatest().eraseToAnyPublisher()
    },
    "catch": { up, token in
        up.setFailureType(to: Failure.self).tryMap { String($0) }.catch { _ in
            _ = token
            return Just("")
        }
        .eraseToAnyPublisher()
    },
    "retry": { up, token in
        up.setFailureType(to: Failure.self).retry(1).map {
            _ = token
            return "\($0)"
        }.replaceError(with: "")
            .eraseToAnyPublisher()
    },
    "append": { up, token in
        up.append(4).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "buffer": { up, token in
        up.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).map {
            _ = token
            return "\($0)"
        }
        .eraseToAnyPublisher()
    },
    "share": { up, token in
        up.share().map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "drop(untilOutputFrom:)": { up, token in
        up.drop(untilOutputFrom: Just(())).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
    "print": { up, token in
        final class Discard: TextOutputStream {
            func write(_ string: String) {}
        }
        return up.print("", to: Discard()).map {
            _ = token
            return "\($0)"
        }.eraseToAnyPublisher()
    },
]

@Suite("Every operator releases its chain")
struct OperatorReleaseTests {
    enum Ending: CaseIterable {
        case completion
        case cancel
    }

    @Test(arguments: operators.keys.sorted(), Ending.allCases)
    func chainIsReleased(_ name: String, _ ending: Ending) throws {
        let build = try #require(operators[name])
        let subject = PassthroughSubject<Int, Never>()
        weak var weakToken: LifetimeToken?
        var received: [String] = []
        let cancellable: AnyCancellable
        do {
            let token = LifetimeToken()
            weakToken = token
            cancellable = build(subject.eraseToAnyPublisher(), token).sink { value in
                _ = token
                received.append(value)
            }
        }
        subject.send(1)
        subject.send(2)
        switch ending {
        case .completion: subject.send(completion: .finished)
        case .cancel: cancellable.cancel()
        }
        #expect(weakToken == nil, "\(name): the chain still holds its closures after \(ending)")
        withExtendedLifetime((subject, cancellable)) {}
    }
}
