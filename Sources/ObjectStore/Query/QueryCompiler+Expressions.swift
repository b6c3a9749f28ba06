import Foundation

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

extension QueryCompiler {
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
}
