import Streams
import StreamsTesting
import Testing
import TestSupport

/// Inputs of the kind `Fuzz/Targets/marbles.swift` feeds the parser, kept as plain tests so
/// `swift test` checks them without libFuzzer. A crash input found by the fuzzer goes here.
@Suite(.resourceCheck) struct MarblesFuzzInputTests {
    @Test func invalidUTF8BecomesReplacementCharactersThatAreUnknownValues() throws {
        let text = String(decoding: [0x2D, 0xFF, 0xFE, 0x7C] as [UInt8], as: UTF8.self)
        #expect(throws: MarbleError.unknownValue("\u{FFFD}", column: 2)) {
            try Marbles.events(text, values: ["a": 1])
        }
        // With self-standing values the replacement character is an element like any other.
        #expect(try Marbles.events(text) == [.next(10, "\u{FFFD}"), .next(20, "\u{FFFD}"), .completed(30)])
    }

    @Test func controlCharactersAndNULAreValuesOrErrorsNotCrashes() throws {
        #expect(throws: MarbleError.unknownValue("\0", column: 2)) {
            try Marbles.events("-\0-|", values: ["a": 1])
        }
        #expect(try Marbles.events("\u{1}\u{7F}|") == [.next(0, "\u{1}"), .next(10, "\u{7F}"), .completed(20)])
    }

    @Test func aLongDiagramParsesInOnePassWithExactTimes() throws {
        let frames = 200_000
        let text = String(repeating: "-", count: frames) + "a|"
        let events = try Marbles.events(text, values: ["a": 7], timePerFrame: 3, startTime: 5)
        #expect(events == [.next(5 + frames * 3, 7), .completed(5 + (frames + 1) * 3)])
    }

    @Test func manyGroupsAndErrorsAtTheFarEnd() throws {
        let text = String(repeating: "(ab)", count: 10_000) + "("
        #expect(throws: MarbleError.unclosedGroup(column: 40_001)) {
            try Marbles.events(text, values: ["a": 1, "b": 2])
        }
    }
}
