import Foundation

/// A parsed query: a predicate tree plus optional `SORT`, `DISTINCT` and `LIMIT` clauses.
///
/// Build one from the query language or from the typed builder; both give the same tree.
///
///     let p = try StorePredicate(format: "price < %@ AND name CONTAINS[c] $1", 1000, "pep")
///     store.objects(Pizza.self).filter(p)
public struct StorePredicate: CustomStringConvertible, @unchecked Sendable {
    var node: PredicateNode
    var clauses: [PostClause]
    /// The depth of `node` (kept so that combining predicates never walks the tree).
    let depth: Int

    init(node: PredicateNode, clauses: [PostClause] = []) {
        self.node = node
        self.clauses = clauses
        self.depth = node.depth
    }

    /// A predicate built by `&&`, `||` or `!`: past ``PredicateNode/maximumDepth`` the tree is
    /// replaced by a ``PredicateNode/tooDeep(_:)`` marker, so filtering with it throws a
    /// `QueryError` instead of overflowing the stack, and building on it stays that small.
    init(built node: PredicateNode, depth: Int, clauses: [PostClause]) {
        self.clauses = clauses
        if case .tooDeep = node {
            self.node = node
            self.depth = 1
        } else if let marker = node.tooDeepOperand {
            self.node = marker
            self.depth = 1
        } else if depth > PredicateNode.maximumDepth {
            self.node = .tooDeep(QueryError(.unsupported, expected: "a predicate nested at most \(PredicateNode.maximumDepth) levels deep",
                                            found: "deeper nesting", column: 0))
            self.depth = 1
        } else {
            self.node = node
            self.depth = depth
        }
    }

    /// Parses a query in the Realm query language.
    ///
    /// - Parameters:
    ///   - format: The query text; `%@`, `$0`, `$1` … take `arguments`, `%K` takes a key name.
    ///   - arguments: The values. They are values only: never parsed as query text.
    /// - Throws: ``QueryError`` naming what was expected, what was found and the column.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, variadicArguments: arguments)
    }

    /// Parses with the arguments of a variadic call. Swift passes an `[Any]` given to an
    /// `Any...` parameter as the arguments themselves, so `filter("id IN %@", ids)` with `ids`
    /// decoded from JSON arrives as the ids: when a query takes one argument and more came, they
    /// were that one array.
    init(format: String, variadicArguments arguments: [Any]) throws {
        var parser = try QueryParser(text: format, arguments: arguments)
        if parser.argumentsUsed == 1 && arguments.count > 1 {
            parser = try QueryParser(text: format, arguments: [arguments])
        }
        self = try parser.parseQuery()
    }

    /// Parses a query with an array of arguments.
    ///
    /// - Parameters:
    ///   - format: The query text.
    ///   - arguments: The values for `%@` and `$n`.
    /// - Throws: ``QueryError``.
    public init(format: String, arguments: [Any]) throws {
        var parser = try QueryParser(text: format, arguments: arguments)
        self = try parser.parseQuery()
    }

    /// The predicate that matches everything.
    public static let all = StorePredicate(node: .constant(true))

    /// Both predicates (clauses of `self` are kept). Chaining `&&` makes one flat chain.
    public static func && (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate {
        if case .and(let operands) = lhs.node, operands.count < QueryParser.maximumChainLength {
            return StorePredicate(built: .and(operands + [rhs.node]), depth: max(lhs.depth, rhs.depth + 1), clauses: lhs.clauses + rhs.clauses)
        }
        return StorePredicate(built: .and([lhs.node, rhs.node]), depth: max(lhs.depth, rhs.depth) + 1, clauses: lhs.clauses + rhs.clauses)
    }

    /// Either predicate. Chaining `||` makes one flat chain.
    public static func || (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate {
        if case .or(let operands) = lhs.node, operands.count < QueryParser.maximumChainLength {
            return StorePredicate(built: .or(operands + [rhs.node]), depth: max(lhs.depth, rhs.depth + 1), clauses: lhs.clauses + rhs.clauses)
        }
        return StorePredicate(built: .or([lhs.node, rhs.node]), depth: max(lhs.depth, rhs.depth) + 1, clauses: lhs.clauses + rhs.clauses)
    }

    /// The negation (`!!p` is `p`).
    public static prefix func ! (operand: StorePredicate) -> StorePredicate {
        if case .not(let inner) = operand.node {
            return StorePredicate(built: inner, depth: operand.depth - 1, clauses: operand.clauses)
        }
        return StorePredicate(built: .not(operand.node), depth: operand.depth + 1, clauses: operand.clauses)
    }

    /// Query text that parses back to the same predicate (arguments inlined as literals).
    public var description: String {
        var text = node.description
        for clause in clauses { text += " " + clause.description }
        return text
    }
}

/// How a comparison treats a key path with several values (through a to-many link or a list).
enum Quantifier: String { case none = "", any = "ANY", all = "ALL", noneOf = "NONE" }

/// Comparison operators.
enum ComparisonOperator: String {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE", `in` = "IN"
}

/// `[c]`, `[d]`, `[cd]`.
struct StringOptions: OptionSet, Hashable {
    let rawValue: Int
    static let caseInsensitive = StringOptions(rawValue: 1)
    static let diacriticInsensitive = StringOptions(rawValue: 2)

    var description: String {
        if isEmpty { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

/// Collection operators.
enum AggregateOperator: String { case count = "@count", size = "@size", sum = "@sum", avg = "@avg", min = "@min", max = "@max" }

/// A side of a comparison.
indirect enum QueryExpression: CustomStringConvertible {
    /// A key path (`categories.name`; inside SUBQUERY it starts with the variable, `$c.name`).
    case keyPath([String], column: Int)
    /// A literal or argument value (lists for `IN`).
    case value(StoreValue)
    /// `collection.@count`, `collection.@sum.property`, `list.@max` …
    case aggregate([String], AggregateOperator, [String], column: Int)
    /// `SUBQUERY(collection, $var, predicate).@count`.
    case subquery([String], variable: String, PredicateNode, column: Int)

    /// The depth of a subquery's predicate below this expression (1 for anything else).
    var depth: Int {
        if case .subquery(_, _, let predicate, _) = self { return 1 + predicate.depth }
        return 1
    }

    var description: String {
        switch self {
        case .keyPath(let path, _): return path.joined(separator: ".")
        case .value(let v): return v.literal
        case .aggregate(let path, let op, let property, _):
            return (path + [op.rawValue] + property).joined(separator: ".")
        case .subquery(let path, let variable, let predicate, _):
            return "SUBQUERY(\(path.joined(separator: ".")), \(variable), \(predicate.description)).@count"
        }
    }
}

/// The predicate tree both the parser and the builder produce.
///
/// `AND` and `OR` chains are one node with all their operands (not a binary tree), so a long
/// chain costs no recursion to compile, evaluate or print.
indirect enum PredicateNode: CustomStringConvertible {
    case constant(Bool)
    /// Two or more operands, all of which must match.
    case and([PredicateNode])
    /// Two or more operands, one of which must match.
    case or([PredicateNode])
    case not(PredicateNode)
    case comparison(QueryExpression, ComparisonOperator, QueryExpression, StringOptions, Quantifier)
    case between(QueryExpression, QueryExpression, QueryExpression, Quantifier)
    /// A built predicate nested deeper than ``maximumDepth``: compiling it throws the error.
    /// (Building stops adding levels at the limit, so no tree is ever deep enough to overflow
    /// the stack when it is compiled, printed or freed.)
    case tooDeep(QueryError)

    /// The deepest tree a predicate may have: room for a parsed predicate at the parser's
    /// nesting limit (a level of parentheses can add an AND and an OR), checked for built ones.
    static let maximumDepth = 2 * QueryParser.maximumNesting + 2

    /// The tree's depth (1 for a leaf); computed for trees already known to be shallow.
    var depth: Int {
        switch self {
        case .constant, .tooDeep: return 1
        case .and(let operands), .or(let operands): return 1 + (operands.map(\.depth).max() ?? 0)
        case .not(let p): return 1 + p.depth
        case .comparison(let l, _, let r, _, _): return 1 + max(l.depth, r.depth)
        case .between(let v, let lo, let hi, _): return 1 + max(v.depth, lo.depth, hi.depth)
        }
    }

    var description: String { text(in: .top) }

    /// Where a node is printed, for deciding its parentheses.
    enum Context { case top, and, or, not }

    /// The node as query text, parenthesised only where the grammar needs it (an OR inside an
    /// AND or a NOT, an AND inside an AND or a NOT, a chain inside a chain of the same kind),
    /// so the text never nests deeper than the query it was parsed from.
    func text(in context: Context) -> String {
        switch self {
        case .constant(let v): return v ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let operands):
            let body = operands.map { $0.text(in: .and) }.joined(separator: " AND ")
            return context == .top || context == .or ? body : "(\(body))"
        case .or(let operands):
            let body = operands.map { $0.text(in: .or) }.joined(separator: " OR ")
            return context == .top ? body : "(\(body))"
        case .not(let p): return "NOT \(p.text(in: .not))"
        case .comparison(let l, let op, let r, let options, let q):
            let prefix = q == .none ? "" : q.rawValue + " "
            return "\(prefix)\(l.description) \(op.rawValue)\(options.description) \(r.description)"
        case .between(let v, let lo, let hi, let q):
            let prefix = q == .none ? "" : q.rawValue + " "
            return "\(prefix)\(v.description) BETWEEN {\(lo.description), \(hi.description)}"
        case .tooDeep: return "FALSEPREDICATE"
        }
    }
}

/// `SORT(…)`, `DISTINCT(…)`, `LIMIT(n)`, applied in the order written.
enum PostClause: CustomStringConvertible {
    /// Sort keys, with the column of each key in the query text (0 when built in code).
    case sort([SortDescriptor], columns: [Int] = [])
    /// Distinct keys, with their columns.
    case distinct([String], columns: [Int] = [])
    case limit(Int)

    var description: String {
        switch self {
        case .sort(let keys, _): return "SORT(" + keys.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
        case .distinct(let keys, _): return "DISTINCT(" + keys.joined(separator: ", ") + ")"
        case .limit(let n): return "LIMIT(\(n))"
        }
    }
}

/// A sort key: a key path (through to-one links) and a direction, as Realm's `SortDescriptor`.
public struct SortDescriptor: Hashable, Sendable {
    /// The key path to sort by, e.g. `"price"` or `"category.name"`.
    public var keyPath: String
    /// Ascending (the default) or descending.
    public var ascending: Bool

    /// Creates a sort key.
    ///
    /// - Parameters:
    ///   - keyPath: The key path.
    ///   - ascending: The direction.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// The same key, the other direction.
    public var reversed: SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}

extension PredicateNode {
    /// A ``tooDeep(_:)`` marker among the direct operands, if any (it poisons what contains it).
    var tooDeepOperand: PredicateNode? {
        switch self {
        case .tooDeep: return self
        case .and(let operands), .or(let operands): return operands.first { if case .tooDeep = $0 { return true } else { return false } }
        case .not(let inner): if case .tooDeep = inner { return inner } else { return nil }
        default: return nil
        }
    }
}
