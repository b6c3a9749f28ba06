import Foundation

/// Date literals: `YYYY-MM-DD@HH:MM:SS[:nanos]` (or `T` for `@`; UTC, proleptic Gregorian
/// calendar; each part one or more digits, as in Realm) and `T<seconds>:<nanos>`.
///
/// Once the text has the shape of a date, every part is checked and a wrong one is a
/// ``QueryError`` that names it (`month 13`, `day 30 of February 2024`, `hour 25`) at its
/// column; nothing is carried over into the next month or day.
extension QueryLexer {
    /// The calendar parts of a date literal, with the longest value each may have.
    private static let timeParts: [(name: String, limit: Int)] = [("hour", 23), ("minute", 59), ("second", 59)]
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    /// Reads ASCII digits at the current position: their text and value (`nil` past `Int.max`).
    private mutating func number() -> (text: String, value: Int?, column: Int)? {
        let start = i
        while let c = peek(), c.isASCII, c.isNumber { i += 1 }
        guard i > start else { return nil }
        let text = String(chars[start..<i])
        return (text, Int(text), start + 1)
    }

    /// A date part out of its range, or missing.
    private func wrongPart(_ expected: String, _ found: String, column: Int) -> QueryError {
        QueryError(.syntax, expected: expected, found: found, column: column)
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanos]`: `nil` (nothing consumed) unless the text starts with
    /// `digits-digits-digits`; a date once it does, or a ``QueryError`` naming the wrong part.
    mutating func scanDate() throws -> Date? {
        let save = i
        guard let year = number(), peek() == "-", peek(1)?.isASCII == true, peek(1)?.isNumber == true else { i = save; return nil }
        i += 1
        guard let month = number(), peek() == "-", peek(1)?.isASCII == true, peek(1)?.isNumber == true else { i = save; return nil }
        i += 1
        let day = number()!
        guard let y = year.value, (1...9999).contains(y) else {
            throw wrongPart("a year from 1 to 9999 (other dates are written Tseconds:nanoseconds)", "year \(year.text)", column: year.column)
        }
        guard let m = month.value, (1...12).contains(m) else {
            throw wrongPart("a month from 1 to 12", "month \(month.text)", column: month.column)
        }
        let monthName = Self.monthNames[m - 1]
        let lastDay = Self.daysIn(month: m, year: y)
        guard let d = day.value, (1...lastDay).contains(d) else {
            throw wrongPart("a day from 1 to \(lastDay) in \(monthName) \(y)", "day \(day.text) of \(monthName)", column: day.column)
        }
        guard let separator = peek(), separator == "@" || separator == "T" else {
            throw wrongPart("'@' or 'T' and a time (HH:MM:SS) after the date", peek().map { "'\($0)'" } ?? "end of query", column: i + 1)
        }
        i += 1
        var time: [Int] = []
        for (index, part) in Self.timeParts.enumerated() {
            if index > 0 {
                guard peek() == ":" else {
                    throw wrongPart("':' and the \(part.name) of the time (HH:MM:SS)", peek().map { "'\($0)'" } ?? "end of query", column: i + 1)
                }
                i += 1
            }
            guard let value = number() else {
                throw wrongPart("the \(part.name) of the time (HH:MM:SS)", peek().map { "'\($0)'" } ?? "end of query", column: i + 1)
            }
            guard let v = value.value, v <= part.limit else {
                throw wrongPart("\(part.name == "hour" ? "an" : "a") \(part.name) from 0 to \(part.limit)", "\(part.name) \(value.text)", column: value.column)
            }
            time.append(v)
        }
        var nanos = 0
        if peek() == ":" {
            i += 1
            guard let value = number() else {
                throw wrongPart("the nanoseconds after ':'", peek().map { "'\($0)'" } ?? "end of query", column: i + 1)
            }
            guard let v = value.value, v <= 999_999_999 else {
                throw wrongPart("nanoseconds from 0 to 999999999", "nanoseconds \(value.text)", column: value.column)
            }
            nanos = v
        }
        let seconds = Self.daysSinceEpoch(year: y, month: m, day: d) * 86_400 + time[0] * 3_600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: Double(seconds)).addingTimeInterval(Double(nanos) / 1_000_000_000)
    }

    /// `T<seconds>:<nanos>`; the seconds are whole, or (for dates that whole seconds cannot
    /// spell: beyond ±2^53 s, infinite or NaN) a double such as `1e+16`, `inf` or `nan`.
    /// `nil` (nothing consumed) unless a `:` follows the seconds; then a date, or a
    /// ``QueryError`` about the nanoseconds.
    mutating func scanTimestamp() throws -> Date? {
        let save = i
        i += 1
        let st = i
        if peek() == "-" { i += 1 }
        while let c = peek(), c.isASCII, c.isNumber { i += 1 }
        if let seconds = Int64(String(chars[st..<i])), peek() == ":" {
            return try scanNanos(after: Double(seconds))
        }
        i = st
        while let c = peek(), c.isASCII, c.isLetter || c.isNumber || c == "." || c == "+" || c == "-" { i += 1 }
        let text = String(chars[st..<i])
        guard text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "i" || $0 == "n" }) == true,
              let seconds = Double(text), peek() == ":" else { i = save; return nil }
        return try scanNanos(after: seconds)
    }

    /// The `:<nanos>` part of a timestamp whose seconds were read (`-999999999` to `999999999`).
    private mutating func scanNanos(after seconds: Double) throws -> Date {
        i += 1
        let column = i + 1
        let negative = peek() == "-"
        if negative { i += 1 }
        guard let value = number() else {
            throw wrongPart("the nanoseconds of the T-date after ':'", peek().map { "'\($0)'" } ?? "end of query", column: i + 1)
        }
        guard let v = value.value, v <= 999_999_999 else {
            throw wrongPart("nanoseconds from -999999999 to 999999999", "nanoseconds \(negative ? "-" : "")\(value.text)", column: column)
        }
        let nanos = negative ? -v : v
        return Date(timeIntervalSince1970: nanos == 0 ? seconds : seconds + Double(nanos) / 1_000_000_000)
    }

    /// The number of days in a month of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (negative before it):
    /// the count of days in whole 400-year eras, years, and months since March, so that the
    /// leap day falls at the end of the counted year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
