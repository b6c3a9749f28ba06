import Foundation

/// A compiled predicate: a closure over a row and the snapshot it belongs to.
typealias Matcher = (Row, Snapshot) -> Bool

/// One step of a resolved key path.
enum PathStep {
    /// A field of the current model (its ordinal and kind).
    case field(Int, FieldKind)
    /// A key inside an embedded value.
    case key(String)
}

/// A key path resolved against a schema.
struct ResolvedPath {
    var steps: [PathStep]
    /// Whether the path may yield several values (through a list or to-many link).
    var isMulti: Bool
    /// The kind at the end of the path, when known.
    var leaf: FieldKind?

    /// The single field ordinal when the path is one scalar field of the root model.
    var directField: Int? {
        if steps.count == 1, !isMulti, case .field(let i, _) = steps[0] { return i }
        return nil
    }

    /// Collects the values the path reaches from `row`.
    func gather(_ row: Row, _ snapshot: Snapshot, into out: inout [StoreValue]) {
        ResolvedPath.walk(row: row, steps: steps, at: 0, snapshot, &out)
    }

    /// The first value the path reaches (`null` when none): for single-valued paths and sorting.
    func single(_ row: Row, _ snapshot: Snapshot) -> StoreValue {
        if let i = directField { return row[i] }
        var out: [StoreValue] = []
        gather(row, snapshot, into: &out)
        return out.first ?? .null
    }

    private static func walk(row: Row, steps: [PathStep], at k: Int, _ snapshot: Snapshot, _ out: inout [StoreValue]) {
        guard case .field(let i, let kind) = steps[k] else { return }
        let value = row[i]
        let last = k == steps.count - 1
        switch kind {
        case .link(let ref):
            if last { out.append(value); return }
            guard !value.isNull, let target = snapshot.tables[ref.name]?.row(forKey: value) else { out.append(.null); return }
            walk(row: target, steps: steps, at: k + 1, snapshot, &out)
        case .linkList(let ref):
            guard case .list(let keys) = value else { return }
            if last { out.append(contentsOf: keys); return }
            guard let table = snapshot.tables[ref.name] else { return }
            for key in keys {
                if let target = table.row(forKey: key) { walk(row: target, steps: steps, at: k + 1, snapshot, &out) }
            }
        case .list:
            guard case .list(let items) = value else { if last { out.append(value) }; return }
            if last { out.append(contentsOf: items); return }
            for item in items { walkValue(item, steps: steps, at: k + 1, &out) }
        default:
            if last { out.append(value); return }
            walkValue(value, steps: steps, at: k + 1, &out)
        }
    }

    private static func walkValue(_ value: StoreValue, steps: [PathStep], at k: Int, _ out: inout [StoreValue]) {
        guard case .key(let name) = steps[k] else { return }
        let next: StoreValue
        if case .map(let dict) = value { next = dict[name] ?? .null } else { next = .null }
        if k == steps.count - 1 {
            if case .list(let items) = next { out.append(contentsOf: items) } else { out.append(next) }
            return
        }
        if case .list(let items) = next {
            for item in items { walkValue(item, steps: steps, at: k + 1, &out) }
        } else {
            walkValue(next, steps: steps, at: k + 1, &out)
        }
    }
}

/// A compiled expression: a constant, or values computed from a row.
struct CompiledExpression {
    var constant: StoreValue?
    var isMulti = false
    var leaf: FieldKind?
    var path: ResolvedPath?
    var column = 0
    var name = ""
    var evaluate: (Row, Snapshot) -> [StoreValue] = { _, _ in [] }

    func values(_ row: Row, _ snapshot: Snapshot) -> [StoreValue] {
        if let constant { return [constant] }
        return evaluate(row, snapshot)
    }
}

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

    // MARK: Key paths

    /// The most keys a key path may have: evaluating one follows a link per key, recursively.
    static let maximumKeyPathLength = 64

    func resolve(_ parts: [String], column: Int) throws -> ResolvedPath {
        guard parts.count <= Self.maximumKeyPathLength else {
            throw QueryError(.unsupported, expected: "a key path of at most \(Self.maximumKeyPathLength) keys",
                             found: "\(parts.count) keys", column: column)
        }
        var parts = parts
        if let variable, parts.first == variable {
            parts.removeFirst()
            if parts.isEmpty {
                throw QueryError(.unsupported, expected: "a key path after \(variable)", found: "'\(variable)' alone", column: column)
            }
        }
        var current: ObjectSchema? = schema
        var embedded: [String: FieldKind]?
        var steps: [PathStep] = []
        var multi = false
        var leaf: FieldKind?
        for name in parts {
            if let sub = embedded {
                steps.append(.key(name))
                leaf = sub[name]
                embedded = nil
                switch leaf {
                case .embedded(let s)?: embedded = s
                case .list(let k)?:
                    multi = true
                    if case .embedded(let s) = k { embedded = s }
                case nil:
                    if !sub.isEmpty {
                        throw QueryError(.unknownKey, expected: "known keys: \(sub.keys.sorted().joined(separator: ", "))", found: "'\(name)'", column: column)
                    }
                default: break
                }
                continue
            }
            guard let model = current else {
                throw QueryError(.unknownKey, expected: "'\(parts.joined(separator: "."))' goes past a value that has no keys", found: "'\(name)'", column: column)
            }
            guard let i = model.fieldIndex[name] else {
                throw QueryError(.unknownKey, expected: "\(model.name) has keys: \(model.fieldNames.joined(separator: ", "))", found: "'\(name)' in \(model.name)", column: column)
            }
            let kind = model.fields[i].kind
            steps.append(.field(i, kind))
            leaf = kind
            current = nil
            switch kind {
            case .link(let ref): current = ref.schema
            case .linkList(let ref): current = ref.schema; multi = true
            case .list(let k):
                multi = true
                if case .embedded(let s) = k { embedded = s }
            case .embedded(let s): embedded = s
            default: break
            }
        }
        return ResolvedPath(steps: steps, isMulti: multi, leaf: leaf)
    }

    // MARK: Expressions

    func expression(_ e: QueryExpression) throws -> CompiledExpression {
        switch e {
        case .value(let v):
            return CompiledExpression(constant: v)
        case .keyPath(let parts, let column):
            let path = try resolve(parts, column: column)
            var c = CompiledExpression(isMulti: path.isMulti, leaf: path.leaf, path: path, column: column, name: parts.joined(separator: "."))
            if let i = path.directField {
                c.evaluate = { row, _ in [row[i]] }
            } else {
                c.evaluate = { row, snapshot in
                    var out: [StoreValue] = []
                    path.gather(row, snapshot, into: &out)
                    return out
                }
            }
            return c
        case .aggregate(let parts, let op, let property, let column):
            let collection = try resolve(parts, column: column)
            guard collection.isMulti || op == .count || op == .size else {
                throw QueryError(.typeMismatch, expected: "a list or to-many key path before \(op.rawValue)", found: "'\(parts.joined(separator: "."))'", column: column)
            }
            let full = property.isEmpty ? collection : try resolve(parts + property, column: column)
            let name = (parts + [op.rawValue] + property).joined(separator: ".")
            var c = CompiledExpression(isMulti: false, leaf: nil, column: column, name: name)
            c.evaluate = { row, snapshot in
                var values: [StoreValue] = []
                if op == .count || op == .size {
                    collection.gather(row, snapshot, into: &values)
                    if !collection.isMulti, let v = values.first {
                        switch v {
                        case .string(let s): return [.int(Int64(s.count))]
                        case .data(let d): return [.int(Int64(d.count))]
                        default: return [.int(v.isNull ? 0 : 1)]
                        }
                    }
                    return [.int(Int64(values.count))]
                }
                full.gather(row, snapshot, into: &values)
                return [aggregate(op, values)]
            }
            return c
        case .subquery(let parts, let variable, let predicate, let column):
            let collection = try resolve(parts, column: column)
            guard case .field(_, let kind)? = collection.steps.last, case .linkList(let ref) = kind else {
                throw QueryError(.typeMismatch, expected: "a to-many link in SUBQUERY", found: "'\(parts.joined(separator: "."))'", column: column)
            }
            let inner = try QueryCompiler(schema: ref.schema, variable: variable).compile(predicate)
            let name = ref.name
            var c = CompiledExpression(isMulti: false, leaf: .int, column: column, name: "SUBQUERY")
            c.evaluate = { row, snapshot in
                var keys: [StoreValue] = []
                collection.gather(row, snapshot, into: &keys)
                guard let table = snapshot.tables[name] else { return [.int(0)] }
                var count: Int64 = 0
                for key in keys {
                    if let target = table.row(forKey: key), inner(target, snapshot) { count += 1 }
                }
                return [.int(count)]
            }
            return c
        }
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

/// Makes a constant hash like the stored values of a field of kind `leaf` (`5.0` → `5` for ints).
func normalise(_ value: StoreValue, for leaf: FieldKind?) -> StoreValue {
    var kind = leaf
    if case .list(let k)? = leaf { kind = k }
    switch (kind, value) {
    case (.int?, .double(let d)) where d.rounded() == d && abs(d) < 9e18: return .int(Int64(d))
    case (.double?, .int(let i)): return .double(Double(i))
    case (.uuid?, .string(let s)): return UUID(uuidString: s).map(StoreValue.uuid) ?? value
    case (_, .double(let d)) where leaf == nil && d.rounded() == d && abs(d) < 9e18: return .int(Int64(d))
    default: return value
    }
}

/// A `[c]`/`[d]` string test against an ASCII constant (`needle`, already folded) that reads
/// each row's bytes in place instead of building a folded copy of every row's string. A row
/// that is ASCII (and has no carriage return, which joins a following line feed into one
/// `Character`) compares as bytes: for such text, byte and `Character` comparisons agree, `[d]`
/// changes nothing and `[c]` is ASCII lowercasing. Any other value takes `general`.
///
/// Returns `nil` when the operator or the needle has no fast form.
func asciiFoldedTest(_ op: ComparisonOperator, _ options: StringOptions, needle: String, general: @escaping (StoreValue) -> Bool) -> ((StoreValue) -> Bool)? {
    let pattern = Array(needle.utf8)
    guard pattern.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
    let ignoreCase = options.contains(.caseInsensitive)
    let match: (UnsafeBufferPointer<UInt8>) -> Bool
    switch op {
    case .contains: match = { asciiFind(pattern, in: $0, ignoreCase: ignoreCase) }
    case .beginsWith: match = { $0.count >= pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase) }
    case .endsWith: match = { $0.count >= pattern.count && asciiEqual(pattern, $0, from: $0.count - pattern.count, ignoreCase: ignoreCase) }
    case .equal: match = { $0.count == pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase) }
    case .notEqual: match = { !($0.count == pattern.count && asciiEqual(pattern, $0, from: 0, ignoreCase: ignoreCase)) }
    default: return nil
    }
    return { value in
        guard case .string(var text) = value else { return general(value) }
        let result = text.withUTF8 { bytes -> Bool? in
            for byte in bytes where byte >= 0x80 || byte == 0x0D { return nil }
            return match(bytes)
        }
        return result ?? general(value)
    }
}

/// ASCII lowercase of a byte (other bytes unchanged).
@inline(__always)
private func asciiLower(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}

/// Whether `pattern` (lowercase when `ignoreCase`) occurs in `text` at `start`.
@inline(__always)
private func asciiEqual(_ pattern: [UInt8], _ text: UnsafeBufferPointer<UInt8>, from start: Int, ignoreCase: Bool) -> Bool {
    pattern.withUnsafeBufferPointer { pattern in
        var i = 0
        while i < pattern.count {
            let byte = text[start + i]
            if (ignoreCase ? asciiLower(byte) : byte) != pattern[i] { return false }
            i += 1
        }
        return true
    }
}

/// Whether `pattern` (lowercase when `ignoreCase`) occurs anywhere in `text`; an empty pattern
/// occurs everywhere.
private func asciiFind(_ pattern: [UInt8], in text: UnsafeBufferPointer<UInt8>, ignoreCase: Bool) -> Bool {
    if pattern.isEmpty { return true }
    if text.count < pattern.count { return false }
    let first = pattern[0]
    var start = 0
    let last = text.count - pattern.count
    while start <= last {
        let byte = text[start]
        if (ignoreCase ? asciiLower(byte) : byte) == first, asciiEqual(pattern, text, from: start, ignoreCase: ignoreCase) {
            return true
        }
        start += 1
    }
    return false
}

/// Case/diacritic folding for `[c]`, `[d]`, `[cd]`.
@inline(__always)
func fold(_ value: StoreValue, _ options: StringOptions) -> StoreValue {
    guard !options.isEmpty, case .string(let s) = value else { return value }
    // ASCII text folds to its lowercase for [c] and to itself for [d]: skip Foundation's folding
    // (which builds a new string through NSString for every row).
    if s.utf8.allSatisfy({ $0 < 0x80 }) {
        return options.contains(.caseInsensitive) ? .string(s.lowercased()) : value
    }
    var o: String.CompareOptions = []
    if options.contains(.caseInsensitive) { o.insert(.caseInsensitive) }
    if options.contains(.diacriticInsensitive) { o.insert(.diacriticInsensitive) }
    return .string(s.folding(options: o, locale: nil))
}

@inline(__always)
func stringTest(_ a: StoreValue, _ b: StoreValue, _ test: (String, String) -> Bool) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)): return test(x, y)
    case (.data(let x), .data(let y)):
        return test(x.map { String(format: "%02x", $0) }.joined(), y.map { String(format: "%02x", $0) }.joined())
    default: return false
    }
}

/// `*` matches any run of characters, `?` exactly one.
func likeMatch(_ s: [Unicode.Scalar], _ p: [Unicode.Scalar]) -> Bool {
    var i = 0, j = 0, star = -1, mark = 0
    while i < s.count {
        if j < p.count, p[j] == "?" || (p[j] != "*" && p[j] == s[i]) {
            i += 1; j += 1
        } else if j < p.count, p[j] == "*" {
            star = j; mark = i; j += 1
        } else if star >= 0 {
            j = star + 1; mark += 1; i = mark
        } else {
            return false
        }
    }
    while j < p.count, p[j] == "*" { j += 1 }
    return j == p.count
}

/// `@sum`, `@avg`, `@min`, `@max` over values (nulls ignored).
func aggregate(_ op: AggregateOperator, _ values: [StoreValue]) -> StoreValue {
    let present = values.filter { !$0.isNull }
    switch op {
    case .count, .size: return .int(Int64(present.count))
    case .sum:
        if present.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
            var total: Int64 = 0
            for case .int(let v) in present { total &+= v }
            return .int(total)
        }
        if present.allSatisfy({ if case .decimal = $0 { return true } else { return false } }) {
            var total = Decimal(0)
            for case .decimal(let v) in present { total += v }
            return .decimal(total)
        }
        return .double(present.compactMap(\.numeric).reduce(0, +))
    case .avg:
        guard !present.isEmpty else { return .null }
        if present.allSatisfy({ if case .decimal = $0 { return true } else { return false } }) {
            var total = Decimal(0)
            for case .decimal(let v) in present { total += v }
            return .decimal(total / Decimal(present.count))
        }
        let numbers = present.compactMap(\.numeric)
        guard !numbers.isEmpty else { return .null }
        return .double(numbers.reduce(0, +) / Double(numbers.count))
    case .min:
        return present.min { (compareValues($0, $1) ?? 0) < 0 } ?? .null
    case .max:
        return present.max { (compareValues($0, $1) ?? 0) < 0 } ?? .null
    }
}
