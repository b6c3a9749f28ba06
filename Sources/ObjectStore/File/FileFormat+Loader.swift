import Foundation

extension FileFormat {
    /// Rebuilds tables from snapshot and commit records.
    struct Loader {
        let codeSchemas: [String: ObjectSchema]
        var tables: [String: TableState] = [:]
        var checks: [String: [ValueCheck]] = [:]
        var mismatched: [(stored: ObjectSchema, code: ObjectSchema)] = []

        init(codeSchemas: [String: ObjectSchema]) { self.codeSchemas = codeSchemas }

        mutating func readDefinition(_ r: inout ByteReader) throws -> String {
            let name = try r.string()
            let pk = try r.count()
            let n = try r.count(minimumSize: 3)
            guard n > 0, pk < n else { throw FileFormatError("table \(name) has a bad primary key ordinal") }
            var fields: [FieldSchema] = []
            var kinds: [String] = []
            for _ in 0..<n {
                let fieldName = try r.string()
                let kind = try r.string()
                let flags = try r.u8()
                guard flags <= 3 else { throw FileFormatError("bad field flags \(flags)") }
                guard !fields.contains(where: { $0.name == fieldName }) else { throw FileFormatError("field \(fieldName) defined twice in \(name)") }
                fields.append(FieldSchema(name: fieldName, kind: .embedded([:]), isOptional: flags & 1 != 0, isIndexed: flags & 2 != 0 || fields.count == pk))
                kinds.append(kind)
            }
            let stored = ObjectSchema(name: name, fields: fields, primaryKeyIndex: pk, type: nil, kindNames: kinds)
            if let existing = tables[name] {
                guard existing.schema.layout == stored.layout else { throw FileFormatError("table \(name) is defined twice with different fields") }
                return name
            }
            var schema = stored
            if let code = codeSchemas[name] {
                if code.layout == stored.layout { schema = code } else { mismatched.append((stored, code)) }
            }
            tables[name] = TableState(schema: schema)
            checks[name] = ValueCheck.checks(for: stored)
            return name
        }

        mutating func readTable(_ r: inout ByteReader) throws {
            let name = try readDefinition(&r)
            var table = tables.removeValue(forKey: name)!
            defer { tables[name] = table }
            let n = try r.count()
            table.reserveCapacity(n)
            for _ in 0..<n { try insert(try r.row(), into: &table) }
        }

        private func insert(_ row: Row, into table: inout TableState) throws {
            guard row.count == table.schema.fields.count else {
                throw FileFormatError("a \(table.schema.name) row has \(row.count) fields, not \(table.schema.fields.count)")
            }
            if let problem = ValueCheck.problem(in: row, schema: table.schema, checks: checks[table.schema.name]!) {
                throw FileFormatError(problem)
            }
            guard table.slot(forKey: row[table.schema.primaryKeyIndex]) == nil else {
                throw FileFormatError("duplicate primary key \(row[table.schema.primaryKeyIndex].literal.prefix(60)) in \(table.schema.name)")
            }
            table.insert(row)
        }

        mutating func readCommit(_ r: inout ByteReader) throws {
            let defs = try r.count()
            for _ in 0..<defs { _ = try readDefinition(&r) }
            let n = try r.count(minimumSize: 2)
            var currentName = ""
            var current: TableState?
            defer { if let current { tables[currentName] = current } }
            for _ in 0..<n {
                let tag = try r.u8()
                guard let change = Change(rawValue: tag) else { throw FileFormatError("unknown change \(tag)") }
                let name = try r.string()
                if name != currentName || current == nil {
                    if let old = current { tables[currentName] = old }
                    guard let table = tables.removeValue(forKey: name) else {
                        current = nil
                        throw FileFormatError("a change to undefined table \(name)")
                    }
                    current = table
                    currentName = name
                }
                switch change {
                case .insert:
                    try insert(try r.row(), into: &current!)
                case .update:
                    let key = try r.value()
                    guard let slot = current!.slot(forKey: key), var row = current!.row(slot) else {
                        throw FileFormatError("an update of missing \(name) \(key.literal.prefix(60))")
                    }
                    let count = try r.count(minimumSize: 2)
                    for _ in 0..<count {
                        let field = try r.varint()
                        guard field < UInt64(row.count), Int(field) != current!.schema.primaryKeyIndex else {
                            throw FileFormatError("an update of bad field \(field) in \(name)")
                        }
                        let value = try r.value()
                        let schema = current!.schema
                        guard checks[name]![Int(field)].accepts(value, optional: schema.fields[Int(field)].isOptional) else {
                            throw FileFormatError("\(name).\(schema.fields[Int(field)].name) set to \(value.kindName), not \(schema.kindNames[Int(field)])")
                        }
                        row[Int(field)] = value
                    }
                    current!.replace(slot: slot, with: row)
                case .delete:
                    let key = try r.value()
                    guard let slot = current!.slot(forKey: key) else {
                        throw FileFormatError("a delete of missing \(name) \(key.literal.prefix(60))")
                    }
                    current!.delete(slot: slot)
                }
            }
        }

        mutating func finish() -> [String: TableState] {
            for name in Array(tables.keys) { tables[name]!.compactIfNeeded() }
            return tables
        }
    }
}
