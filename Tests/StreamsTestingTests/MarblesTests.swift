import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct MarblesTests {
    private let values: [Character: Int] = ["a": 1, "b": 2, "c": 3, "d": 4]

    // MARK: Parsing

    @Test func parsesValuesAndCompletion() throws {
        let events = try Marbles.events("--a--b--|", values: values)
        #expect(events == [.next(20, 1), .next(50, 2), .completed(80)])
    }

    @Test func usesTimePerFrameAndStartTime() throws {
        let events = try Marbles.events("-a|", values: values, timePerFrame: 5, startTime: 100)
        #expect(events == [.next(105, 1), .completed(110)])
    }

    @Test func ignoresSpaces() throws {
        let events = try Marbles.events("  -a - b|", values: values)
        #expect(events == [.next(10, 1), .next(30, 2), .completed(40)])
    }

    @Test func groupEventsShareTheTimeOfTheParenthesis() throws {
        let events = try Marbles.events("--(ab)-c|", values: values)
        #expect(events == [.next(20, 1), .next(20, 2), .next(70, 3), .completed(80)])
    }

    @Test func groupMayEndTheSequence() throws {
        let events = try Marbles.events("-(a|)", values: values)
        #expect(events == [.next(10, 1), .completed(10)])
    }

    @Test func hashAndXAreErrors() throws {
        #expect(try Marbles.events("-a-#", values: values, error: testError) == [.next(10, 1), .error(30, testError)])
        #expect(try Marbles.events("x", values: values, error: TestError.code(7)) == [.error(0, TestError.code(7))])
    }

    @Test func xIsAValueWhenTheMapDefinesIt() throws {
        #expect(try Marbles.events("-x|", values: ["x": 9]) == [.next(10, 9), .completed(20)])
    }

    @Test func defaultErrorIsTheMarbleEventError() throws {
        #expect(try Marbles.events("#", values: values) == [.error(0, MarbleEventError())])
    }

    @Test func subscriptionPointIsTheReferenceFrame() throws {
        let events = try Marbles.events("-a-^-b-|", values: values, startTime: 200)
        #expect(events == [.next(180, 1), .next(220, 2), .completed(240)])
    }

    @Test func characterValuesStandForThemselves() throws {
        #expect(try Marbles.events("-a-b-|") == [.next(10, "a"), .next(30, "b"), .completed(50)])
    }

    @Test func recordedEventsFromMarbles() throws {
        let events = try Recorded.events(fromMarbles: "--a--|", values: ["a": 1], startTime: 200)
        #expect(events == [.next(220, 1), .completed(250)])
    }

    // MARK: Malformed marbles

    @Test(arguments: [
        ("--(ab", MarbleError.unclosedGroup(column: 3)),
        ("a)", .unopenedGroup(column: 2)),
        (" a  )", .unopenedGroup(column: 5)),
        ("((a))", .nestedGroup(column: 2)),
        ("-()", .emptyGroup(column: 2)),
        ("(a-b)", .unexpectedInGroup("-", column: 3)),
        ("(a^)", .unexpectedInGroup("^", column: 3)),
        ("-a|-b", .eventAfterTerminal(column: 5)),
        ("-#a", .eventAfterTerminal(column: 3)),
        ("-|(a)", .eventAfterTerminal(column: 4)),
        ("(|a)", .eventAfterTerminal(column: 3)),
        ("-q", .unknownValue("q", column: 2)),
        ("^-^", .duplicateSubscriptionPoint(column: 3)),
    ])
    func malformedMarblesThrowWithTheColumn(marbles: String, expected: MarbleError) {
        #expect(throws: expected) { try Marbles.events(marbles, values: values) }
    }

    @Test func coldObservableRejectsASubscriptionPoint() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(throws: MarbleError.subscriptionPointInColdObservable(column: 3)) {
            try scheduler.createColdObservable("--^a", values: values)
        }
    }

    @Test func errorsDescribeTheColumn() {
        #expect(MarbleError.unclosedGroup(column: 3).description.contains("column 3"))
        #expect(MarbleError.eventAfterTerminal(column: 5).column == 5)
        #expect(MarbleError.unknownValue("q", column: 2).description.contains("'q'"))
    }

    @Test func trailingDashesAfterTheEndAreAllowed() throws {
        #expect(try Marbles.events("-a|---", values: values) == [.next(10, 1), .completed(20)])
    }

    // MARK: Printing

    @Test func printsValuesAndTerminalEvents() {
        let events: [Recorded<Event<Int>>] = [.next(20, 1), .next(50, 2), .completed(80)]
        #expect(Marbles.string(from: events, values: values) == "--a--b--|")
        let failed: [Recorded<Event<Int>>] = [.next(10, 1), .error(30, testError)]
        #expect(Marbles.string(from: failed, values: values) == "-a-#")
    }

    @Test func printsGroupsAndRespectsTheirWidth() {
        let events: [Recorded<Event<Int>>] = [.next(220, 2), .next(220, 3), .completed(260)]
        #expect(Marbles.string(from: events, values: values, startTime: 200) == "--(bc)|")
    }

    @Test func printsASubscriptionPointForEarlierEvents() {
        let events: [Recorded<Event<Int>>] = [.next(180, 1), .next(220, 2), .completed(240)]
        #expect(Marbles.string(from: events, values: values, startTime: 200) == "a-^-b-|")
    }

    @Test func listsOffGridEventsAndUnknownValues() {
        let events: [Recorded<Event<Int>>] = [.next(211, 1), .next(230, 42), .completed(301)]
        let printed = Marbles.string(from: events, values: values, startTime: 200)
        #expect(printed == "-a-?------|  [off grid: a@211, |@301; ? = 42]")
    }

    @Test func printsNothingAfterTheFirstTerminalEvent() {
        let events: [Recorded<Event<Int>>] = [.completed(10), .next(20, 1)]
        #expect(Marbles.string(from: events, values: values) == "-|")
    }

    @Test(arguments: [
        "--a--b--|",
        "-a-^-b-(cd)--|",
        "(ab)-c-#",
        "^",
        "a^b",
        "---(a|)",
        "-a--b--c--d",
        "",
    ])
    func roundTripsParsePrintParse(marbles: String) throws {
        let parsed = try Marbles.events(marbles, values: values, error: testError, startTime: 200)
        let printed = Marbles.string(from: parsed, values: values, startTime: 200)
        let reparsed = try Marbles.events(printed, values: values, error: testError, startTime: 200)
        #expect(reparsed == parsed, "printed as \(printed)")
        #expect(!printed.contains("["), "printed as \(printed)")
    }

    @Test func roundTripPrintsTheCanonicalDiagram() throws {
        let marbles = "a-^-b-(cd)--|"
        let printed = Marbles.string(from: try Marbles.events(marbles, values: values, startTime: 200), values: values, startTime: 200)
        #expect(printed == marbles)
    }

    // MARK: Test scheduler conveniences

    @Test func hotObservableFromMarbles() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = try scheduler.createHotObservable("-a-^-b--c-|", values: values)
        #expect(xs.recordedEvents == [.next(180, 1), .next(220, 2), .next(250, 3), .completed(270)])
        let res = scheduler.start { xs.map { $0 * 10 } }
        #expect(res.marbles(values: ["B": 20, "C": 30]) == "--B--C-|")
        #expect(res.events == [.next(220, 20), .next(250, 30), .completed(270)])
        #expect(xs.subscriptions == [Subscription(200, 270)])
    }

    @Test func coldObservableFromMarbles() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let ys = try scheduler.createColdObservable("--a-(b|)", values: values)
        let res = scheduler.start { ys.asObservable() }
        #expect(res.events == [.next(220, 1), .next(240, 2), .completed(240)])
        #expect(res.marbles(values: values) == "--a-(b|)")
        #expect(ys.subscriptions == [Subscription(200, 240)])
        #expect(ys.marbles(values: values) == "--a-(b|)")
    }

    @Test func malformedHotObservableThrows() {
        let scheduler = TestScheduler(initialClock: 0)
        #expect(throws: MarbleError.unclosedGroup(column: 4)) {
            try scheduler.createHotObservable("-a-(b", values: values)
        }
    }
}
