// SPDX-License-Identifier: Apache-2.0
import Combine
import CombineTesting
import Testing

@testable import CombineExtras

@Suite("Event")
struct EventTests {
    @Test func equalityComparesCaseAndPayload() {
        typealias IntEvent = Event<Int, OperatorFailure>
        #expect(IntEvent.value(1) == .value(1))
        #expect(IntEvent.value(1) != .value(2))
        #expect(IntEvent.failure(OperatorFailure(code: 1)) == .failure(OperatorFailure(code: 1)))
        #expect(IntEvent.failure(OperatorFailure(code: 1)) != .failure(OperatorFailure(code: 2)))
        #expect(IntEvent.finished == .finished)
        #expect(IntEvent.finished != .value(1))
    }

    @Test func describesItself() {
        #expect(Event<Int, OperatorFailure>.value(1).description == "value(1)")
        #expect(
            Event<Int, OperatorFailure>.failure(OperatorFailure(code: 2)).description
                == "failure(OperatorFailure(code: 2))")
        #expect(Event<Int, OperatorFailure>.finished.description == "finished")
    }

    @Test func isItsOwnEventConvertible() {
        let event = Event<String, OperatorFailure>.value("a")
        #expect(event.event == event)
    }
}
