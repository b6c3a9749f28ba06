import Foundation

/// A token of the query language.
struct QueryToken {
    enum Kind: Equatable {
        case identifier, number, string, argument, keyArgument, variable, date, symbol, end
    }
    var kind: Kind
    var text: String
    var value: StoreValue = .null
    var column: Int

    var display: String {
        switch kind {
        case .end: return "end of query"
        case .string: return "string \(value.literal)"
        default: return "'\(text)'"
        }
    }

    func isKeyword(_ word: String) -> Bool { kind == .identifier && text.caseInsensitiveCompare(word) == .orderedSame }
    func isSymbol(_ s: String) -> Bool { kind == .symbol && text == s }
}

/// Splits query text into tokens, keeping 1-based columns.
struct QueryLexer {
    let chars: [Character]
    var i = 0

    init(_ text: String) { chars = Array(text) }

    mutating func tokens() throws -> [QueryToken] {
        var out: [QueryToken] = []
        while true {
            let t = try next()
            out.append(t)
            if t.kind == .end { return out }
            // The body of `uuid(…)` and `decimal128(…)` is read as it stands (a UUID's dashes
            // and a decimal's sign are not tokens of the language).
            if t.isSymbol("("), out.count >= 2, out[out.count - 2].isKeyword("uuid") || out[out.count - 2].isKeyword("decimal128") {
                let start = i
                while let c = peek(), c != ")" { i += 1 }
                let body = String(chars[start..<i]).trimmingCharacters(in: .whitespaces)
                if !body.isEmpty { out.append(QueryToken(kind: .identifier, text: body, column: start + 1)) }
            }
        }
    }

    private func peek(_ offset: Int = 0) -> Character? { i + offset < chars.count ? chars[i + offset] : nil }

    private mutating func next() throws -> QueryToken {
        while let c = peek(), c.isWhitespace { i += 1 }
        let start = i
        let column = i + 1
        guard let c = peek() else { return QueryToken(kind: .end, text: "", column: column) }
        // Strings
        if c == "'" || c == "\"" {
            i += 1
            var s = ""
            while true {
                guard let d = peek() else {
                    throw QueryError(.syntax, expected: "a closing \(c)", found: "end of query", column: i + 1)
                }
                i += 1
                if d == c { break }
                if d == "\\" {
                    guard let e = peek() else { throw QueryError(.syntax, expected: "an escaped character", found: "end of query", column: i + 1) }
                    i += 1
                    switch e {
                    case "n": s.append("\n")
                    case "t": s.append("\t")
                    case "r": s.append("\r")
                    case "0": s.append("\0")
                    case "u":
                        let hex = String(chars[i..<min(i + 4, chars.count)])
                        guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                            throw QueryError(.syntax, expected: "four hex digits after \\u", found: "'\(hex)'", column: i + 1)
                        }
                        s.unicodeScalars.append(scalar)
                        i += 4
                    default: s.append(e)
                    }
                } else {
                    s.append(d)
                }
            }
            return QueryToken(kind: .string, text: String(chars[start..<i]), value: .string(s), column: column)
        }
        // Dates: YYYY-MM-DD[@T]HH:MM:SS[:nanos]  or  T<seconds>:<nanos>
        if c.isNumber, let date = scanDate() { return QueryToken(kind: .date, text: String(chars[start..<i]), value: .date(date), column: column) }
        if c == "T", peek(1) != nil, let date = scanTimestamp() {
            return QueryToken(kind: .date, text: String(chars[start..<i]), value: .date(date), column: column)
        }
        // -inf, -infinity (what a negative infinite double prints as)
        if c == "-", let word = wordAfterMinus(), ["inf", "infinity"].contains(word.lowercased()) {
            i += 1 + word.count
            return QueryToken(kind: .number, text: String(chars[start..<i]), value: .double(-.infinity), column: column)
        }
        // Numbers
        if c.isNumber || (c == "." && (peek(1)?.isNumber ?? false)) || (c == "-" && ((peek(1)?.isNumber ?? false) || peek(1) == ".")) {
            i += 1
            if c == "0", let x = peek(), x == "x" || x == "X" {
                i += 1
                while let d = peek(), d.isHexDigit { i += 1 }
                let text = String(chars[start..<i])
                guard let v = Int64(text.dropFirst(2), radix: 16) else { throw QueryError(.syntax, expected: "a hexadecimal number", found: "'\(text)'", column: column) }
                return QueryToken(kind: .number, text: text, value: .int(v), column: column)
            }
            var isFloat = c == "."
            while let d = peek() {
                if d.isNumber { i += 1 }
                else if d == ".", !isFloat, peek(1)?.isNumber ?? false { isFloat = true; i += 1 }
                else if d == "e" || d == "E" {
                    isFloat = true
                    i += 1
                    if peek() == "-" || peek() == "+" { i += 1 }
                } else { break }
            }
            let text = String(chars[start..<i])
            if !isFloat, let v = Int64(text) { return QueryToken(kind: .number, text: text, value: .int(v), column: column) }
            guard let v = Double(text) else { throw QueryError(.syntax, expected: "a number", found: "'\(text)'", column: column) }
            return QueryToken(kind: .number, text: text, value: .double(v), column: column)
        }
        // Arguments
        if c == "%" {
            if peek(1) == "@" { i += 2; return QueryToken(kind: .argument, text: "%@", column: column) }
            if peek(1) == "K" { i += 2; return QueryToken(kind: .keyArgument, text: "%K", column: column) }
            throw QueryError(.syntax, expected: "%@ or %K", found: "'%\(peek(1).map(String.init) ?? "")'", column: column)
        }
        if c == "$" {
            i += 1
            while let d = peek(), d.isLetter || d.isNumber || d == "_" { i += 1 }
            let text = String(chars[start..<i])
            if text.count == 1 { throw QueryError(.syntax, expected: "an argument number or variable name after '$'", found: peek().map { "'\($0)'" } ?? "end of query", column: column + 1) }
            if Int(text.dropFirst()) != nil { return QueryToken(kind: .argument, text: text, column: column) }
            return QueryToken(kind: .variable, text: text, column: column)
        }
        // Identifiers (and @count …)
        if c.isLetter || c == "_" || c == "@" {
            i += 1
            while let d = peek(), d.isLetter || d.isNumber || d == "_" { i += 1 }
            return QueryToken(kind: .identifier, text: String(chars[start..<i]), column: column)
        }
        // Symbols
        let two = peek(1).map { String(c) + String($0) } ?? ""
        if ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
            i += 2
            return QueryToken(kind: .symbol, text: two, column: column)
        }
        if "()[]{},.<>=!".contains(c) {
            i += 1
            return QueryToken(kind: .symbol, text: String(c), column: column)
        }
        throw QueryError(.syntax, expected: "a key, value or operator", found: "'\(c)'", column: column)
    }

    /// The letters right after a `-` at the current position, when a word follows it.
    private func wordAfterMinus() -> String? {
        var k = i + 1
        while k < chars.count, chars[k].isLetter { k += 1 }
        guard k > i + 1, k == chars.count || !(chars[k].isNumber || chars[k] == "_") else { return nil }
        return String(chars[(i + 1)..<k])
    }

    private mutating func digits(_ count: Int) -> Int? {
        guard i + count <= chars.count else { return nil }
        let s = String(chars[i..<i + count])
        guard s.allSatisfy(\.isNumber), let v = Int(s) else { return nil }
        i += count
        return v
    }

    private mutating func scanDate() -> Date? {
        let save = i
        guard let y = digits(4), peek() == "-" else { i = save; return nil }
        i += 1
        guard let mo = digits(2), peek() == "-" else { i = save; return nil }
        i += 1
        guard let d = digits(2), let sep = peek(), sep == "@" || sep == "T" else { i = save; return nil }
        i += 1
        guard let h = digits(2), peek() == ":" else { i = save; return nil }
        i += 1
        guard let mi = digits(2), peek() == ":" else { i = save; return nil }
        i += 1
        guard let s = digits(2) else { i = save; return nil }
        var nanos = 0
        if peek() == ":" {
            i += 1
            let st = i
            while let c = peek(), c.isNumber { i += 1 }
            nanos = Int(String(chars[st..<i])) ?? 0
        }
        var components = DateComponents()
        components.year = y; components.month = mo; components.day = d
        components.hour = h; components.minute = mi; components.second = s
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { i = save; return nil }
        return date.addingTimeInterval(Double(nanos) / 1_000_000_000)
    }

    /// `T<seconds>:<nanos>`; the seconds are whole, or (for dates that whole seconds cannot
    /// spell: beyond ±2^53 s, infinite or NaN) a double such as `1e+16`, `inf` or `nan`.
    private mutating func scanTimestamp() -> Date? {
        let save = i
        i += 1
        let st = i
        if peek() == "-" { i += 1 }
        while let c = peek(), c.isNumber { i += 1 }
        if let seconds = Int64(String(chars[st..<i])), peek() == ":" {
            return scanNanos(after: Double(seconds), save: save)
        }
        i = st
        while let c = peek(), c.isLetter || c.isNumber || c == "." || c == "+" || c == "-" { i += 1 }
        let text = String(chars[st..<i])
        guard text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "i" || $0 == "n" }) == true,
              let seconds = Double(text), peek() == ":" else { i = save; return nil }
        return scanNanos(after: seconds, save: save)
    }

    /// The `:<nanos>` part of a timestamp whose seconds were read.
    private mutating func scanNanos(after seconds: Double, save: Int) -> Date? {
        i += 1
        let ns = i
        if peek() == "-" { i += 1 }
        while let c = peek(), c.isNumber { i += 1 }
        guard let nanos = Int64(String(chars[ns..<i])) else { i = save; return nil }
        return Date(timeIntervalSince1970: nanos == 0 ? seconds : seconds + Double(nanos) / 1_000_000_000)
    }
}
