import Foundation

/// A compiled predicate: a closure over a row and the snapshot it belongs to.
typealias Matcher = (Row, Snapshot) -> Bool

/// Turns a predicate tree into a ``Matcher`` for one model, checking keys and value kinds.
struct QueryCompiler {
    let schema: ObjectSchema
    var variable: String?
    /// Stops the recursion over a deep predicate before the thread's stack runs out.
    let stack = StackGuard()

    init(schema: ObjectSchema, variable: String? = nil) {
        self.schema = schema
        self.variable = variable
    }

    // MARK: Predicates

    func compile(_ node: PredicateNode) throws -> Matcher {
        try stack.check(column: 0)
        switch node {
        case .constant(let v):
            return { _, _ in v }
        case .and(let operands):
            let matchers = try operands.map(compile)
            if matchers.count == 2 {
                let a = matchers[0], b = matchers[1]
                return { row, s in a(row, s) && b(row, s) }
            }
            return { row, s in
                for matcher in matchers where !matcher(row, s) { return false }
                return true
            }
        case .or(let operands):
            let matchers = try operands.map(compile)
            if matchers.count == 2 {
                let a = matchers[0], b = matchers[1]
                return { row, s in a(row, s) || b(row, s) }
            }
            return { row, s in
                for matcher in matchers where matcher(row, s) { return true }
                return false
            }
        case .tooDeep(let error):
            throw error
        case .not(let p):
            let a = try compile(p)
            return { row, s in !a(row, s) }
        case .between(let v, let lo, let hi, let q):
            let value = try expression(v)
            let low = try expression(lo), high = try expression(hi)
            guard let l = low.constant, let h = high.constant else {
                throw QueryError(.unsupported, expected: "constant BETWEEN bounds", found: "a key path", column: value.column)
            }
            try check(value, l, op: .greaterOrEqual)
            try check(value, h, op: .lessOrEqual)
            let test: (StoreValue) -> Bool = { x in
                guard let a = compareValues(x, l), let b = compareValues(x, h) else { return false }
                return a >= 0 && b <= 0
            }
            return quantify(value, q, test)
        case .comparison(let l, let op, let r, let options, let q):
            return try comparison(l, op, r, options, q)
        }
    }

    private func comparison(_ l: QueryExpression, _ op: ComparisonOperator, _ r: QueryExpression, _ options: StringOptions, _ q: Quantifier) throws -> Matcher {
        var lhs = try expression(l)
        var rhs = try expression(r)
        var op = op
        // `5 < price` → `price > 5`, so the constant is on the right.
        if lhs.constant != nil, rhs.constant == nil, op != .in, let flipped = op.flipped {
            swap(&lhs, &rhs)
            op = flipped
        }
        if op == .in {
            if let list = rhs.constant {
                let items: [StoreValue]
                if case .list(let xs) = list { items = xs } else { items = [list] }
                for item in items { try check(lhs, item, op: .equal) }
                if options.isEmpty {
                    let set = Set(items.map { normalise($0, for: lhs.leaf) })
                    let leaf = lhs.leaf
                    return quantify(lhs, q) { set.contains(normalise($0, for: leaf)) }
                }
                let folded = items.map { fold($0, options) }
                return quantify(lhs, q) { v in let f = fold(v, options); return folded.contains { valuesEqual(f, $0) } }
            }
            // `value IN listKeyPath` (or key path IN key path): any element equal.
            let left = lhs, right = rhs
            return { row, s in
                let haystack = right.values(row, s).map { fold($0, options) }
                let needles = left.values(row, s)
                let test: (StoreValue) -> Bool = { n in let f = fold(n, options); return haystack.contains { valuesEqual(f, $0) } }
                switch q {
                case .all: return needles.allSatisfy(test)
                case .noneOf: return !needles.contains(where: test)
                default: return needles.contains(where: test)
                }
            }
        }
        let scalar = Self.scalarTest(op)
        if let c = rhs.constant {
            try check(lhs, c, op: op)
            let constant = fold(c, options)
            if lhs.constant != nil {
                let v = lhs.constant!
                let result = scalar(fold(v, options), constant)
                return { _, _ in result }
            }
            if options.isEmpty {
                return quantify(lhs, q) { scalar($0, constant) }
            }
            let general: (StoreValue) -> Bool = { scalar(fold($0, options), constant) }
            if case .string(let needle) = constant, let fast = asciiFoldedTest(op, options, needle: needle, general: general) {
                return quantify(lhs, q, fast)
            }
            return quantify(lhs, q, general)
        }
        // Key path against key path.
        let left = lhs, right = rhs
        return { row, s in
            let bs = right.values(row, s).map { fold($0, options) }
            let test: (StoreValue) -> Bool = { a in let fa = fold(a, options); return bs.contains { scalar(fa, $0) } }
            let values = left.values(row, s)
            switch q {
            case .all: return values.allSatisfy(test)
            case .noneOf: return !values.contains(where: test)
            default: return values.contains(where: test)
            }
        }
    }

    /// Applies a quantifier to the values of `expression`.
    private func quantify(_ e: CompiledExpression, _ q: Quantifier, _ test: @escaping (StoreValue) -> Bool) -> Matcher {
        if let c = e.constant { let r = test(c); return { _, _ in r } }
        if let path = e.path, let i = path.directField, q == .none || q == .any {
            return { row, _ in test(row[i]) }
        }
        let evaluate = e.evaluate
        switch q {
        case .all: return { row, s in evaluate(row, s).allSatisfy(test) }
        case .noneOf: return { row, s in !evaluate(row, s).contains(where: test) }
        default: return { row, s in evaluate(row, s).contains(where: test) }
        }
    }

    /// How `op` compares a row's value with the other side (both already folded for `[c]`/`[d]`).
    static func scalarTest(_ op: ComparisonOperator) -> (StoreValue, StoreValue) -> Bool {
        switch op {
        case .equal: return { valuesEqual($0, $1) }
        case .notEqual: return { !valuesEqual($0, $1) }
        case .less: return { (compareValues($0, $1) ?? 0) < 0 && !$0.isNull && !$1.isNull }
        case .lessOrEqual: return { compareValues($0, $1).map { $0 <= 0 } ?? false }
        case .greater: return { (compareValues($0, $1) ?? 0) > 0 }
        case .greaterOrEqual: return { compareValues($0, $1).map { $0 >= 0 } ?? false }
        case .beginsWith: return { stringTest($0, $1) { $0.hasPrefix($1) } }
        case .endsWith: return { stringTest($0, $1) { $0.hasSuffix($1) } }
        case .contains: return { stringTest($0, $1) { $1.isEmpty || $0.contains($1) } }
        case .like: return { stringTest($0, $1) { likeMatch(Array($0.unicodeScalars), Array($1.unicodeScalars)) } }
        case .in: return { valuesEqual($0, $1) }
        }
    }

    /// Rejects constants whose kind cannot meet the field's kind.
    private func check(_ e: CompiledExpression, _ value: StoreValue, op: ComparisonOperator) throws {
        guard let leaf = e.leaf, !value.isNull else { return }
        var kind = leaf
        if case .list(let k) = leaf { kind = k }
        if case .link(let ref) = leaf { kind = ref.schema.fields[ref.schema.primaryKeyIndex].kind }
        if case .linkList(let ref) = leaf { kind = ref.schema.fields[ref.schema.primaryKeyIndex].kind }
        let stringOp = [.beginsWith, .endsWith, .contains, .like].contains(op)
        let ok: Bool
        switch (kind, value) {
        case (.int, .int), (.int, .double), (.int, .decimal),
             (.double, .int), (.double, .double), (.double, .decimal),
             (.decimal, .int), (.decimal, .double), (.decimal, .decimal): ok = !stringOp
        case (.string, .string): ok = true
        case (.bool, .bool): ok = !stringOp
        case (.date, .date), (.uuid, .uuid), (.uuid, .string): ok = !stringOp
        case (.data, .data), (.data, .string): ok = true
        case (.embedded, _), (.list, _), (.link, _), (.linkList, _): ok = true
        default: ok = false
        }
        if !ok {
            let what = stringOp ? "a string key path for \(op.rawValue)" : "a \(kind) value for '\(e.name)'"
            throw QueryError(.typeMismatch, expected: what, found: value.literal, column: e.column)
        }
    }
}

extension ComparisonOperator {
    var flipped: ComparisonOperator? {
        switch self {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }
}
