// SPDX-License-Identifier: Apache-2.0
import CombineTesting
import TestSupport
import Testing

@Suite("MarbleDiagram")
struct MarbleDiagramTests {
    @Test func eachSymbolIsOneTick() throws {
        let diagram = try MarbleDiagram("-a7'bc'|")
        #expect(diagram.ticks == [[], [.value("a")], [.value("7")], [.value("bc")], [.finished]])
        #expect(diagram.tickCount == 5)
        #expect(diagram.subscriptionIndex == nil)
        #expect(diagram.zeroIndex == 0)
    }

    @Test func hashIsAFailure() throws {
        #expect(try MarbleDiagram("a#").ticks == [[.value("a")], [.failure]])
    }

    @Test func spacesOnlyAlign() throws {
        let spaced = try MarbleDiagram("  - a   -  [b c]  |  ")
        #expect(spaced == (try MarbleDiagram("-a-[bc]|")))
        #expect(spaced.tickCount == 5)
        #expect(spaced.description == "-a-[bc]|")
    }

    @Test func aGroupIsOneTickWithItsEventsInOrder() throws {
        let diagram = try MarbleDiagram("-[a'bc'|]")
        #expect(diagram.ticks == [[], [.value("a"), .value("bc"), .finished]])
        #expect(diagram.timeline.map(\.time) == [1])
    }

    @Test func aQuotedNameMayHoldAnyCharacterButTheQuote() throws {
        #expect(try MarbleDiagram("'x y-|#^[]('").ticks == [[.value("x y-|#^[](")]])
    }

    @Test func lettersAndDigitsOfAnyScriptAreValues() throws {
        #expect(try MarbleDiagram("é٣").ticks == [[.value("é")], [.value("٣")]])
    }

    @Test func theCaretIsTimeZeroAndEventsBeforeItHaveNegativeTimes() throws {
        let diagram = try MarbleDiagram("--a-^-b|")
        #expect(diagram.subscriptionIndex == 4)
        #expect(diagram.zeroIndex == 4)
        #expect(diagram.ticks[4] == [])
        #expect(diagram.timeline.map(\.time) == [-2, 2, 3])
        #expect(diagram.timeline.map(\.events) == [[.value("a")], [.value("b")], [.finished]])
    }

    @Test func theCaretAtTheStartShiftsEverythingByOneTick() throws {
        #expect(try MarbleDiagram("^a|").timeline.map(\.time) == [1, 2])
        #expect(try MarbleDiagram("a|").timeline.map(\.time) == [0, 1])
    }

    @Test func aCompletionMayComeBeforeTheCaretAndTicksMayFollowIt() throws {
        let diagram = try MarbleDiagram("-|-^--")
        #expect(diagram.timeline.map(\.time) == [-2])
        #expect(diagram.tickCount == 6)
        #expect(try MarbleDiagram("a|--").tickCount == 4)
    }

    @Test func theDescriptionIsTheMarbleWithoutSpacesAndParsesBack() throws {
        for marble in ["-a-'bc'-[de|]", "--^-a", "[a'x y']#", "a--"] {
            let diagram = try MarbleDiagram(marble)
            #expect(diagram.description == marble)
            #expect(try MarbleDiagram(diagram.description) == diagram)
        }
        #expect(try MarbleDiagram("'a' '7' '-'").description == "a7'-'")
    }

    @Test(arguments: [
        ("--[ab", 3, "'[' is never closed by ']'"),
        ("-'abc", 2, "a quoted name that is never closed by '"),
        ("[a[b]]", 3, "'[' inside the group opened at column 1: groups do not nest"),
        ("a]", 2, "']' without a '[' before it"),
        ("-[]", 2, "an empty group '[]': write '-' for a tick on which nothing happens"),
        ("a''", 2, "an empty name ''"),
        ("[a-]", 3, "'-' inside the group opened at column 1: a group holds only values, '|' and '#'"),
        ("[a^]", 3, "'^' inside the group opened at column 1: a group holds only values, '|' and '#'"),
        ("^-^", 3, "a second '^': the subscription point is already at column 1"),
        ("a|b", 3, "event b after the completion at column 2: nothing happens after '|' or '#'"),
        ("a#-|", 4, "event | after the completion at column 2: nothing happens after '|' or '#'"),
        ("[|a]", 3, "event a after the completion at column 2: nothing happens after '|' or '#'"),
        ("a| 'bc'", 4, "event 'bc' after the completion at column 2: nothing happens after '|' or '#'"),
        ("(ab)", 1, "unexpected '('"),
        ("a-*", 3, "unexpected '*'"),
    ])
    func aSyntaxErrorNamesTheRuleAndTheColumn(marble: String, column: Int, reason: String) {
        let error = #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram(marble) }
        #expect(error?.marble == marble)
        #expect(error?.column == column)
        #expect(error?.reason.hasPrefix(reason) == true, "\(error?.reason ?? "")")
    }

    @Test func aSyntaxErrorDrawsACaretUnderTheColumn() {
        let error = #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram("--[ab") }
        #expect(
            error?.description == """
                marble syntax error at column 3: '[' is never closed by ']'
                  --[ab
                    ^
                """)
    }

    @Test func theUnexpectedCharacterMessageListsWhatATickMayBe() {
        let error = #expect(throws: MarbleSyntaxError.self) { try MarbleDiagram("a!") }
        #expect(error?.reason.contains("a letter or digit, a 'quoted name', '|', '#', '^' or a [group]") == true)
    }
}
