import Foundation

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

extension QueryCompiler {
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
}
