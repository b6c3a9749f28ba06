import Foundation

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
            else if token.kind == .argument, case .int(let n) = token.value { highest = max(highest, n == .max ? Int.max : Int(n) + 1) }
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
            // `$n`: the lexer keeps n (Int.max for an index past it, which no argument list reaches).
            if case .int(let n) = token.value { index = Int(n) } else { index = .max }
        }
        guard index < arguments.count else {
            throw QueryError(.missingArgument, expected: "argument \(token.text == "%@" ? "#\(index + 1)" : token.text) (\(arguments.count) given)", found: token.display, column: token.column)
        }
        if let unsigned = StoreValue.unsignedAboveInt64(arguments[index]) {
            throw QueryError(.typeMismatch, expected: "an integer from \(Int64.min) to \(Int64.max)", found: unsigned, column: token.column)
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
