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

/// A recursive-descent parser for the query language.
///
/// Grammar (keywords are case-insensitive):
///
///     query      := or clause*
///     or         := and (("OR" | "||") and)*
///     and        := not (("AND" | "&&") not)*
///     not        := ("NOT" | "!") not | primary
///     primary    := "(" or ")" | TRUEPREDICATE | FALSEPREDICATE | comparison
///     comparison := [ANY|SOME|ALL|NONE] expr (op [options] expr | BETWEEN "{" expr "," expr "}")
///     expr       := value | keypath | keypath "." aggregate [ "." keypath ] | SUBQUERY(...) ".@count"
///     clause     := SORT(keypath [ASC|DESC], …) | DISTINCT(keypath, …) | LIMIT(n)
struct QueryParser {
    let tokens: [QueryToken]
    let arguments: [Any]
    var position = 0
    var nextArgument = 0
    var variables: [String] = []
    /// Stops the recursion before the thread's stack runs out (see ``StackGuard``).
    let stack = StackGuard()
    /// How many parentheses, NOTs, SUBQUERYs and list braces enclose the current token.
    var depth = 0
    /// The deepest nesting a query may have; deeper input is a ``QueryError``, not a stack
    /// overflow (parsing and evaluation recurse once per level).
    static let maximumNesting = 64
    /// The most operands an AND or OR chain may have (evaluation recurses along the chain).
    static let maximumChainLength = 1_000

    /// Enters one level of nesting, or fails when the query is nested too deeply.
    mutating func nest() throws {
        try stack.check(column: current.column)
        depth += 1
        guard depth <= Self.maximumNesting else {
            throw QueryError(.unsupported, expected: "at most \(Self.maximumNesting) levels of parentheses, NOT, SUBQUERY and list braces",
                             found: "deeper nesting", column: current.column)
        }
    }

    init(text: String, arguments: [Any]) throws {
        var lexer = QueryLexer(text)
        tokens = try lexer.tokens()
        self.arguments = arguments
    }

    /// How many arguments the query refers to: the `%@`s and `%K`s in order, or the highest
    /// `$n` plus one.
    var argumentsUsed: Int {
        var sequential = 0
        var highest = 0
        for token in tokens {
            if token.kind == .keyArgument || (token.kind == .argument && token.text == "%@") { sequential += 1 }
            else if token.kind == .argument, let n = Int(token.text.dropFirst()) { highest = max(highest, n + 1) }
        }
        return max(sequential, highest)
    }

    var current: QueryToken { tokens[position] }
    var previous: QueryToken? { position > 0 ? tokens[position - 1] : nil }
    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func fail(_ expected: String) -> QueryError {
        QueryError(.syntax, expected: expected, found: current.display, column: current.column)
    }

    mutating func expectSymbol(_ s: String, _ what: String) throws {
        guard current.isSymbol(s) else { throw fail(what) }
        advance()
    }

    mutating func parseQuery() throws -> StorePredicate {
        if current.kind == .end { throw fail("a predicate") }
        var node: PredicateNode = .constant(true)
        if !isClauseStart { node = try parseOr() }
        var clauses: [PostClause] = []
        while current.kind != .end {
            guard isClauseStart else { throw fail("AND, OR or the end of the query") }
            clauses.append(try parseClause())
        }
        return StorePredicate(node: node, clauses: clauses)
    }

    var isClauseStart: Bool {
        (current.isKeyword("SORT") || current.isKeyword("DISTINCT") || current.isKeyword("LIMIT")) && tokens[position + 1].isSymbol("(")
    }

    mutating func parseClause() throws -> PostClause {
        let word = current.text.uppercased()
        advance()
        try expectSymbol("(", "'(' after \(word)")
        switch word {
        case "LIMIT":
            guard current.kind == .number, case .int(let n) = current.value, n >= 0 else { throw fail("a non-negative whole number in LIMIT") }
            advance()
            try expectSymbol(")", "')' after the LIMIT count")
            return .limit(Int(n))
        case "SORT":
            var keys: [SortDescriptor] = []
            var columns: [Int] = []
            repeat {
                if current.isSymbol(",") { advance() }
                columns.append(current.column)
                let path = try parseKeyPathText("a key path in SORT")
                var ascending = true
                if current.isKeyword("ASC") || current.isKeyword("ASCENDING") { advance() }
                else if current.isKeyword("DESC") || current.isKeyword("DESCENDING") { ascending = false; advance() }
                keys.append(SortDescriptor(keyPath: path, ascending: ascending))
            } while current.isSymbol(",")
            try expectSymbol(")", "',' or ')' in SORT")
            return .sort(keys, columns: columns)
        default:
            var keys: [String] = []
            var columns: [Int] = []
            repeat {
                if current.isSymbol(",") { advance() }
                columns.append(current.column)
                keys.append(try parseKeyPathText("a key path in DISTINCT"))
            } while current.isSymbol(",")
            try expectSymbol(")", "',' or ')' in DISTINCT")
            return .distinct(keys, columns: columns)
        }
    }

    mutating func parseKeyPathText(_ what: String) throws -> String {
        guard current.kind == .identifier, !current.text.hasPrefix("@") else { throw fail(what) }
        var parts = [current.text]
        advance()
        while current.isSymbol(".") {
            advance()
            guard current.kind == .identifier else { throw fail("a key after '.'") }
            parts.append(current.text)
            advance()
        }
        return parts.joined(separator: ".")
    }

    mutating func parseOr() throws -> PredicateNode {
        var operands = [try parseAnd()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            let op = current.text
            try checkChain(operands.count, op)
            advance()
            if current.kind == .end { throw fail("a predicate after '\(op)'") }
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .or(operands)
    }

    mutating func parseAnd() throws -> PredicateNode {
        var operands = [try parseNot()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            let op = current.text
            try checkChain(operands.count, op)
            advance()
            if current.kind == .end { throw fail("a predicate after '\(op)'") }
            operands.append(try parseNot())
        }
        return operands.count == 1 ? operands[0] : .and(operands)
    }

    /// Checks that a chain of `count` operands may take one more, or fails past
    /// ``maximumChainLength``.
    private func checkChain(_ count: Int, _ op: String) throws {
        guard count < Self.maximumChainLength else {
            throw QueryError(.unsupported, expected: "at most \(Self.maximumChainLength) operands joined by \(op.uppercased())",
                             found: "a longer chain", column: current.column)
        }
    }

    mutating func parseNot() throws -> PredicateNode {
        if current.isKeyword("NOT") || current.isSymbol("!") {
            let op = current.text
            try nest()
            defer { depth -= 1 }
            advance()
            if current.kind == .end { throw fail("a predicate after '\(op)'") }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws -> PredicateNode {
        if current.isSymbol("(") {
            try nest()
            defer { depth -= 1 }
            advance()
            let inner = try parseOr()
            try expectSymbol(")", "')' or an operator")
            return inner
        }
        if current.isKeyword("TRUEPREDICATE") { advance(); return .constant(true) }
        if current.isKeyword("FALSEPREDICATE") { advance(); return .constant(false) }
        return try parseComparison()
    }

    mutating func parseComparison() throws -> PredicateNode {
        var quantifier = Quantifier.none
        if current.isKeyword("ANY") || current.isKeyword("SOME") { quantifier = .any; advance() }
        else if current.isKeyword("ALL") { quantifier = .all; advance() }
        else if current.isKeyword("NONE") { quantifier = .noneOf; advance() }
        if current.kind == .end || current.isSymbol(")") { throw fail(quantifier == .none ? "a predicate" : "a key path after \(quantifier.rawValue)") }
        let left = try parseExpression(side: "a key path or value")
        let opToken = current
        if current.isKeyword("BETWEEN") {
            advance()
            try expectSymbol("{", "'{' after BETWEEN")
            let lo = try parseExpression(side: "a lower bound in BETWEEN")
            try expectSymbol(",", "',' between the BETWEEN bounds")
            let hi = try parseExpression(side: "an upper bound in BETWEEN")
            try expectSymbol("}", "'}' after the BETWEEN bounds")
            return .between(left, lo, hi, quantifier)
        }
        let op: ComparisonOperator
        switch (current.kind, current.text.uppercased()) {
        case (.symbol, "=="), (.symbol, "="): op = .equal
        case (.symbol, "!="), (.symbol, "<>"): op = .notEqual
        case (.symbol, "<"): op = .less
        case (.symbol, "<="), (.symbol, "=<"): op = .lessOrEqual
        case (.symbol, ">"): op = .greater
        case (.symbol, ">="), (.symbol, "=>"): op = .greaterOrEqual
        case (.identifier, "BEGINSWITH"): op = .beginsWith
        case (.identifier, "ENDSWITH"): op = .endsWith
        case (.identifier, "CONTAINS"): op = .contains
        case (.identifier, "LIKE"): op = .like
        case (.identifier, "IN"): op = .in
        default:
            throw fail("an operator after \(describeExpression(left))")
        }
        advance()
        var options = StringOptions()
        if current.isSymbol("[") {
            advance()
            guard current.kind == .identifier, current.text.allSatisfy({ $0 == "c" || $0 == "d" }) else { throw fail("c, d or cd inside '[ ]'") }
            if current.text.contains("c") { options.insert(.caseInsensitive) }
            if current.text.contains("d") { options.insert(.diacriticInsensitive) }
            advance()
            try expectSymbol("]", "']' after the string options")
        }
        if current.kind == .end || current.isSymbol(")") || current.isKeyword("AND") || current.isKeyword("OR") {
            throw fail("a value after '\(opToken.text)'")
        }
        let right = try parseExpression(side: "a value after '\(opToken.text)'")
        return .comparison(left, op, right, options, quantifier)
    }

    func describeExpression(_ e: QueryExpression) -> String {
        switch e {
        case .keyPath(let p, _): return "'\(p.joined(separator: "."))'"
        default: return "'\(e.description)'"
        }
    }

    mutating func argument(_ token: QueryToken) throws -> Any? {
        let index: Int
        if token.text == "%@" {
            index = nextArgument
            nextArgument += 1
        } else {
            index = Int(token.text.dropFirst())!
        }
        guard index < arguments.count else {
            throw QueryError(.missingArgument, expected: "argument \(token.text == "%@" ? "#\(index + 1)" : token.text) (\(arguments.count) given)", found: token.display, column: token.column)
        }
        return arguments[index]
    }

    mutating func parseExpression(side: String) throws -> QueryExpression {
        let token = current
        switch token.kind {
        case .number, .string, .date:
            advance()
            return .value(token.value)
        case .argument:
            advance()
            let raw = try argument(token)
            guard let value = StoreValue.from(any: raw) else {
                throw QueryError(.typeMismatch, expected: "a storable argument value", found: "\(type(of: raw as Any))", column: token.column)
            }
            return .value(value)
        case .keyArgument:
            advance()
            let raw = try argument(QueryToken(kind: .argument, text: "%@", column: token.column))
            guard let key = raw as? String, !key.isEmpty else {
                throw QueryError(.typeMismatch, expected: "a key name (String) for %K", found: "\(String(describing: raw))", column: token.column)
            }
            return try continueKeyPath(key.split(separator: ".").map(String.init), column: token.column)
        case .symbol where token.text == "{":
            try nest()
            defer { depth -= 1 }
            advance()
            var items: [StoreValue] = []
            if !current.isSymbol("}") {
                repeat {
                    if current.isSymbol(",") { advance() }
                    guard case .value(let v) = try parseExpression(side: "a value in the list") else {
                        throw QueryError(.syntax, expected: "a value in the list", found: "a key path", column: token.column)
                    }
                    items.append(v)
                } while current.isSymbol(",")
            }
            try expectSymbol("}", "',' or '}' in the list")
            return .value(.list(items))
        case .variable:
            advance()
            guard variables.contains(token.text) else {
                throw QueryError(.syntax, expected: "a SUBQUERY variable or argument", found: token.display, column: token.column)
            }
            var parts = [token.text]
            while current.isSymbol(".") {
                advance()
                guard current.kind == .identifier else { throw fail("a key after '.'") }
                parts.append(current.text)
                advance()
            }
            return .keyPath(parts, column: token.column)
        case .identifier:
            let upper = token.text.uppercased()
            switch upper {
            case "TRUE", "YES": advance(); return .value(.bool(true))
            case "FALSE", "NO": advance(); return .value(.bool(false))
            case "NULL", "NIL": advance(); return .value(.null)
            case "INF", "INFINITY": advance(); return .value(.double(.infinity))
            case "NAN": advance(); return .value(.double(.nan))
            case "UUID", "B64", "DECIMAL128":
                if tokens[position + 1].isSymbol("(") || (upper == "B64" && tokens[position + 1].kind == .string) {
                    return try parseTypedLiteral(upper)
                }
            case "SUBQUERY":
                if tokens[position + 1].isSymbol("(") { return try parseSubquery() }
            default: break
            }
            if token.text.hasPrefix("@") { throw fail(side) }
            advance()
            return try continueKeyPath([token.text], column: token.column)
        default:
            throw fail(side)
        }
    }

    mutating func parseTypedLiteral(_ kind: String) throws -> QueryExpression {
        let start = current
        advance()
        if kind == "B64" {
            guard case .string(let s) = current.value, let data = Data(base64Encoded: s) else { throw fail("base64 text after B64") }
            advance()
            return .value(.data(data))
        }
        advance() // (
        var text = ""
        while !current.isSymbol(")") && current.kind != .end { text += current.text; advance() }
        try expectSymbol(")", "')' after the \(kind.lowercased()) literal")
        if kind == "UUID" {
            guard let uuid = UUID(uuidString: text) else { throw QueryError(.syntax, expected: "a UUID", found: "'\(text)'", column: start.column) }
            return .value(.uuid(uuid))
        }
        if text.caseInsensitiveCompare("NaN") == .orderedSame { return .value(.decimal(.nan)) }
        guard let d = Decimal(string: text) else { throw QueryError(.syntax, expected: "a decimal", found: "'\(text)'", column: start.column) }
        return .value(.decimal(d))
    }

    mutating func continueKeyPath(_ start: [String], column: Int) throws -> QueryExpression {
        var parts = start
        while current.isSymbol(".") {
            advance()
            if current.kind == .keyArgument {
                let token = current
                advance()
                guard let key = try argument(QueryToken(kind: .argument, text: "%@", column: token.column)) as? String, !key.isEmpty else {
                    throw QueryError(.typeMismatch, expected: "a key name (String) for %K", found: token.display, column: token.column)
                }
                parts.append(contentsOf: key.split(separator: ".").map(String.init))
                continue
            }
            guard current.kind == .identifier else { throw fail("a key or collection operator after '.'") }
            let name = current.text
            advance()
            if name.hasPrefix("@") {
                guard let op = AggregateOperator(rawValue: name.lowercased()) else {
                    throw QueryError(.syntax, expected: "@count, @size, @sum, @avg, @min or @max", found: "'\(name)'", column: previous!.column)
                }
                var property: [String] = []
                while current.isSymbol(".") {
                    advance()
                    guard current.kind == .identifier, !current.text.hasPrefix("@") else { throw fail("a key after '.'") }
                    property.append(current.text)
                    advance()
                }
                return .aggregate(parts, op, property, column: column)
            }
            parts.append(name)
        }
        return .keyPath(parts, column: column)
    }

    mutating func parseSubquery() throws -> QueryExpression {
        let column = current.column
        try nest()
        defer { depth -= 1 }
        advance()
        advance() // (
        let path = try parseKeyPathText("a collection key path in SUBQUERY")
        try expectSymbol(",", "',' after the SUBQUERY collection")
        guard current.kind == .variable else { throw fail("a $variable in SUBQUERY") }
        let variable = current.text
        advance()
        try expectSymbol(",", "',' after the SUBQUERY variable")
        variables.append(variable)
        let predicate = try parseOr()
        variables.removeLast()
        try expectSymbol(")", "')' after the SUBQUERY predicate")
        try expectSymbol(".", "'.@count' after SUBQUERY(…)")
        guard current.kind == .identifier, ["@count", "@size"].contains(current.text.lowercased()) else { throw fail("@count after SUBQUERY(…).") }
        advance()
        return .subquery(path.split(separator: ".").map(String.init), variable: variable, predicate, column: column)
    }
}
