// SPDX-License-Identifier: Apache-2.0
import Combine
import Testing

/// Types report the module users import, `Combine`, as Apple's do: in `String(reflecting:)`,
/// `dump` and trap messages. (When the API lived in a re-exported `CombineCore` module, these
/// read `CombineCore.Just<Swift.Int>`.)
@Suite("Type names")
struct TypeNameTests {
    @Test func typesReportTheCombineModule() {
        #expect(String(reflecting: Just<Int>.self) == "Combine.Just<Swift.Int>")
        #expect(String(reflecting: Subscribers.Demand.self) == "Combine.Subscribers.Demand")
        #expect(
            String(reflecting: Publishers.Map<PassthroughSubject<Int, Never>, String>.self)
                == "Combine.Publishers.Map<Combine.PassthroughSubject<Swift.Int, Swift.Never>, Swift.String>")
    }

    @Test func dumpNamesTheCombineModule() {
        var text = ""
        dump(Just(1), to: &text)
        #expect(text.contains("Combine.Just<Swift.Int>"))
    }
}
