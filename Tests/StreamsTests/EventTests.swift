import Streams
import TestSupport
import Testing

private struct PlainError: Error {
    let reason: String
}

@Suite(.resourceCheck) struct EventTests {
    @Test func equatableErrorsCompareByValue() {
        #expect(Event<Int>.error(TestError.boom) == .error(TestError.boom))
        #expect(Event<Int>.error(TestError.code(1)) != .error(TestError.code(2)))
        #expect(Event<Int>.error(TestError.boom) != .error(PlainError(reason: "boom")))
    }

    @Test func otherErrorsCompareByTypeAndDescription() {
        #expect(Event<Int>.error(PlainError(reason: "a")) == .error(PlainError(reason: "a")))
        #expect(Event<Int>.error(PlainError(reason: "a")) != .error(PlainError(reason: "b")))
    }

    @Test func accessorsAndMap() {
        let next = Event.next(2)
        #expect(next.element == 2)
        #expect(!next.isStopEvent)
        #expect(Event<Int>.completed.isStopEvent)
        #expect(next.map { $0 * 3 } == .next(6))
        #expect(next.map { _ -> Int in throw TestError.boom } == .error(TestError.boom))
        #expect(Event<Int>.error(TestError.boom).error != nil)
        #expect(next != .completed)
    }
}
