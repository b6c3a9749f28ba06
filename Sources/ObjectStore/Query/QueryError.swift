/// A mistake in a query: what was expected, what was found, and where (1-based column).
///
///     try StorePredicate(format: "price < ")
///     // expected a value after '<' at column 9, found end of query
public struct QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The family of the mistake.
    public enum Kind: Equatable, Sendable {
        /// The text does not follow the grammar.
        case syntax
        /// A key path names no field of the model.
        case unknownKey
        /// A value of the wrong kind for the field or operator.
        case typeMismatch
        /// A `%@` or `$n` without a matching argument.
        case missingArgument
        /// Valid grammar the store cannot evaluate.
        case unsupported
    }

    /// The family of the mistake.
    public let kind: Kind
    /// What the parser expected (or the key that is unknown).
    public let expected: String
    /// What it found instead.
    public let found: String
    /// The 1-based column in the query text (0 when not tied to one place).
    public let column: Int

    /// Creates an error.
    public init(_ kind: Kind, expected: String, found: String, column: Int) {
        self.kind = kind
        self.expected = expected
        self.found = found
        self.column = column
    }

    /// `expected … at column N, found …`, or for keys `unknown key … of Type at column N; known keys: …`.
    public var description: String {
        switch kind {
        case .unknownKey:
            return "unknown key \(found) at column \(column); \(expected)"
        case .typeMismatch:
            return "expected \(expected) at column \(column), found \(found)"
        default:
            return "expected \(expected) at column \(column), found \(found)"
        }
    }
}
