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

    init(node: PredicateNode, clauses: [PostClause] = []) {
        self.node = node
        self.clauses = clauses
    }

    /// Parses a query in the Realm query language.
    ///
    /// - Parameters:
    ///   - format: The query text; `%@`, `$0`, `$1` … take `arguments`, `%K` takes a key name.
    ///   - arguments: The values. They are values only: never parsed as query text.
    /// - Throws: ``QueryError`` naming what was expected, what was found and the column.
    public init(format: String, _ arguments: Any...) throws {
        try self.init(format: format, arguments: arguments)
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

    /// Both predicates (clauses of `self` are kept).
    public static func && (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate {
        StorePredicate(node: .and(lhs.node, rhs.node), clauses: lhs.clauses + rhs.clauses)
    }

    /// Either predicate.
    public static func || (lhs: StorePredicate, rhs: StorePredicate) -> StorePredicate {
        StorePredicate(node: .or(lhs.node, rhs.node), clauses: lhs.clauses + rhs.clauses)
    }

    /// The negation.
    public static prefix func ! (operand: StorePredicate) -> StorePredicate {
        StorePredicate(node: .not(operand.node), clauses: operand.clauses)
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
indirect enum PredicateNode: CustomStringConvertible {
    case constant(Bool)
    case and(PredicateNode, PredicateNode)
    case or(PredicateNode, PredicateNode)
    case not(PredicateNode)
    case comparison(QueryExpression, ComparisonOperator, QueryExpression, StringOptions, Quantifier)
    case between(QueryExpression, QueryExpression, QueryExpression, Quantifier)

    var description: String {
        switch self {
        case .constant(let v): return v ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let l, let r): return "(\(l.description) AND \(r.description))"
        case .or(let l, let r): return "(\(l.description) OR \(r.description))"
        case .not(let p): return "NOT \(p.parenthesised)"
        case .comparison(let l, let op, let r, let options, let q):
            let prefix = q == .none ? "" : q.rawValue + " "
            return "\(prefix)\(l.description) \(op.rawValue)\(options.description) \(r.description)"
        case .between(let v, let lo, let hi, let q):
            let prefix = q == .none ? "" : q.rawValue + " "
            return "\(prefix)\(v.description) BETWEEN {\(lo.description), \(hi.description)}"
        }
    }

    private var parenthesised: String {
        switch self {
        case .and, .or: return description
        default: return "(\(description))"
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
