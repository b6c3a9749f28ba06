import Foundation

/// What values a field of a stored kind may hold: checked for every row read from a file (so a
/// damaged or foreign file is reported at open, not met as a value the model cannot decode)
/// and for every row a migration produces.
indirect enum ValueCheck {
    case int, double, bool, string, date, data, uuid, decimal, link, any
    case list(ValueCheck)

    /// The check for a kind as the file spells it (`FieldKind.description`).
    init(kindName: String) {
        switch kindName {
        case "int": self = .int
        case "double": self = .double
        case "bool": self = .bool
        case "string": self = .string
        case "date": self = .date
        case "data": self = .data
        case "uuid": self = .uuid
        case "decimal": self = .decimal
        default:
            if kindName.hasPrefix("link<") {
                self = .link
            } else if kindName.hasPrefix("list<"), kindName.hasSuffix(">") {
                self = .list(ValueCheck(kindName: String(kindName.dropFirst(5).dropLast())))
            } else {
                self = .any   // embedded values: whatever their Codable form is
            }
        }
    }

    static func checks(for schema: ObjectSchema) -> [ValueCheck] { schema.kindNames.map(ValueCheck.init(kindName:)) }

    /// Thrown by `ByteReader.skipValue` for a well-formed value that does not fit its check.
    struct Mismatch: Error {}

    var isAny: Bool { if case .any = self { return true } else { return false } }
    var isBool: Bool { if case .bool = self { return true } else { return false } }

    /// Whether `value` fits (`nil` allowed when the field is optional, and for links, whose
    /// targets may be gone).
    func accepts(_ value: StoreValue, optional: Bool) -> Bool {
        switch (self, value) {
        case (_, .null): return optional || { if case .link = self { return true } else if case .any = self { return true } else { return false } }()
        case (.any, _): return true
        case (.int, .int), (.bool, .bool), (.string, .string), (.date, .date), (.data, .data), (.uuid, .uuid): return true
        case (.double, .double), (.double, .int): return true
        case (.decimal, .decimal), (.decimal, .int), (.decimal, .double): return true
        case (.link, .int), (.link, .string), (.link, .uuid): return true
        case (.list(let element), .list(let items)): return items.allSatisfy { element.accepts($0, optional: true) }
        default: return false
        }
    }

    /// The first field of `row` that does not fit `schema`, described.
    static func problem(in row: Row, schema: ObjectSchema, checks: [ValueCheck]) -> String? {
        for (i, check) in checks.enumerated() where !check.accepts(row[i], optional: schema.fields[i].isOptional) {
            return "\(schema.name).\(schema.fields[i].name) holds \(row[i].kindName), not \(schema.kindNames[i])\(schema.fields[i].isOptional ? "?" : "")"
        }
        return nil
    }
}

extension StoreValue {
    /// The value's kind, for messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a bool"
        case .int: return "an int"
        case .double: return "a double"
        case .string: return "a string"
        case .date: return "a date"
        case .data: return "data"
        case .uuid: return "a uuid"
        case .decimal: return "a decimal"
        case .list: return "a list"
        case .map: return "an embedded value"
        }
    }
}
