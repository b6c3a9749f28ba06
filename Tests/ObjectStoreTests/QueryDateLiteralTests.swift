import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Date literals are checked part by part: a wrong part is a `QueryError` naming it at its
/// column, never a date carried over into the next month (`2024-13-45@99:00:00` was read as
/// 2025-02-18 03:00 UTC), and parts of one digit are read as Realm reads them.
@Suite(.resourceCheck) struct QueryDateLiteralTests {
    private func error(_ query: String) -> QueryError? {
        do {
            _ = try StorePredicate(format: query)
            return nil
        } catch {
            return error as? QueryError
        }
    }

    @Test(arguments: [
        ("baked > 2024-13-45@99:00:00", "month 13", "a month from 1 to 12", 14),
        ("baked > 2024-00-01@00:00:00", "month 00", "a month from 1 to 12", 14),
        ("baked > 2024-02-30@00:00:00", "day 30 of February", "a day from 1 to 29 in February 2024", 17),
        ("baked > 2023-02-29@00:00:00", "day 29 of February", "a day from 1 to 28 in February 2023", 17),
        ("baked > 2024-04-31@00:00:00", "day 31 of April", "a day from 1 to 30 in April 2024", 17),
        ("baked > 2024-01-00@00:00:00", "day 00 of January", "a day from 1 to 31 in January 2024", 17),
        ("baked > 2024-01-01@25:61:61", "hour 25", "an hour from 0 to 23", 20),
        ("baked > 2024-01-01@23:61:00", "minute 61", "a minute from 0 to 59", 23),
        ("baked > 2024-01-01@23:59:60", "second 60", "a second from 0 to 59", 26),
        ("baked > 0000-01-01@00:00:00", "year 0000", "a year from 1 to 9999 (other dates are written Tseconds:nanoseconds)", 9),
        ("baked > 99999999999999999999-01-01@00:00:00", "year 99999999999999999999",
         "a year from 1 to 9999 (other dates are written Tseconds:nanoseconds)", 9),
        ("baked > 2024-01-01@00:00:00:1000000000", "nanoseconds 1000000000", "nanoseconds from 0 to 999999999", 29),
        ("baked > 2024-01-01", "end of query", "'@' or 'T' and a time (HH:MM:SS) after the date", 19),
        ("baked > 2024-01-01 AND price > 1", "' '", "'@' or 'T' and a time (HH:MM:SS) after the date", 19),
        ("baked > 2024-01-01@12", "end of query", "':' and the minute of the time (HH:MM:SS)", 22),
        ("baked > 2024-01-01@12:", "end of query", "the minute of the time (HH:MM:SS)", 23),
        ("baked > T1:99999999999999999999", "nanoseconds 99999999999999999999", "nanoseconds from -999999999 to 999999999", 12),
        ("baked > T1:-1000000000", "nanoseconds -1000000000", "nanoseconds from -999999999 to 999999999", 12),
        ("baked > T1:", "end of query", "the nanoseconds of the T-date after ':'", 12),
    ])
    func aWrongPartIsNamedAtItsColumn(query: String, found: String, expected: String, column: Int) {
        let error = error(query)
        #expect(error?.kind == .syntax)
        #expect(error?.found == found)
        #expect(error?.expected == expected)
        #expect(error?.column == column)
    }

    @Test(arguments: [
        ("created > 2024-13-45@99:00:00", "expected a month from 1 to 12 at column 16, found month 13"),
        ("created > 2024-02-30@00:00:00", "expected a day from 1 to 29 in February 2024 at column 19, found day 30 of February"),
        ("created > 2024-01-01@25:61:61", "expected an hour from 0 to 23 at column 22, found hour 25"),
        // As Guides/ObjectStore.md prints them.
        ("baked > 2024-13-45@99:00:00", "expected a month from 1 to 12 at column 14, found month 13"),
        ("baked > 2024-01-01@25:61:61", "expected an hour from 0 to 23 at column 20, found hour 25"),
    ])
    func theReportedMessageNamesTheWrongPart(query: String, message: String) {
        #expect(error(query)?.description == message)
    }

    /// Realm's grammar takes each part as one or more digits: `2024-1-1@1:1:1` is a date.
    @Test func partsOfOneDigitAreADate() throws {
        let short = try StorePredicate(format: "baked == 2024-1-1@1:1:1")
        let long = try StorePredicate(format: "baked == 2024-01-01@01:01:01")
        #expect(short.description == long.description)
        #expect(long.description == "baked == T1704070861:0")
    }

    @Test func validDatesAreTheCalendarsDates() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var random = SeededRandom(seed: 1582)
        for _ in 0..<2_000 {
            // From 1600 on, where Foundation's Gregorian calendar is the proleptic one we read.
            let year = Int.random(in: 1600...9999, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...QueryLexer.daysIn(month: month, year: year), using: &random)
            let (h, m, s) = (Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random), Int.random(in: 0...59, using: &random))
            let expected = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: h, minute: m, second: s))!
            let text = String(format: "%04d-%02d-%02d@%02d:%02d:%02d", year, month, day, h, m, s)
            var lexer = QueryLexer(text)
            let tokens = try lexer.tokens()
            #expect(tokens.first?.value == .date(expected), "\(text)")
            #expect(tokens.count == 2, "\(text) is one token")
        }
        // Leap days, and the nanoseconds.
        #expect(try StorePredicate(format: "baked == 2024-02-29@00:00:00").description == "baked == T1709164800:0")
        #expect(try StorePredicate(format: "baked == 2000-02-29T00:00:00:500000000").description == "baked == T951782400:500000000")
        #expect(error("baked == 1900-02-29@00:00:00")?.found == "day 29 of February")
    }

    @Test func dateLiteralsFilter() throws {
        let store = try Fixture.store()
        let pizzas = store.objects(Pizza.self).sorted(byKeyPath: "id")
        #expect(try pizzas.filter(checked: "baked == 2023-11-14@22:13:20").map(\.id) == [1])
        #expect(try pizzas.filter(checked: "baked > 2023-11-14@22:13:20").map(\.id) == [2, 3, 5, 6])
        #expect(throws: QueryError.self) { try pizzas.filter(checked: "baked > 2023-11-31@22:13:20") }
    }
}
