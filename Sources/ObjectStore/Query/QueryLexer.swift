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

    func peek(_ offset: Int = 0) -> Character? { i + offset < chars.count ? chars[i + offset] : nil }

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
        // Dates: YYYY-MM-DD[@T]HH:MM:SS[:nanos]  or  T<seconds>:<nanos> (see QueryLexer+Dates.swift)
        if c.isASCII, c.isNumber, let date = try scanDate() { return QueryToken(kind: .date, text: String(chars[start..<i]), value: .date(date), column: column) }
        if c == "T", peek(1) != nil, let date = try scanTimestamp() {
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
            let digits = text.dropFirst()
            if digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                // An index past Int.max names no argument there can be: it is kept as Int.max,
                // which the parser reports as a missing argument.
                return QueryToken(kind: .argument, text: text, value: .int(Int64(digits) ?? .max), column: column)
            }
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
}
