import Foundation

/// Why a ``Mapper`` could not turn a response into models.
///
/// `localizedDescription` (from `LocalizedError`) is a sentence a screen can show;
/// `description` names the place in the JSON and what is wrong there, for logs.
public enum MapperError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The JSON is malformed, misses a field or has a wrong type. `path` names the place in
    /// JSONPath style with the JSON's own keys (`$[1].price_was`); `reason` says what is wrong.
    case couldNotParse(path: String, reason: String)

    /// `MapperError.couldNotParse(path, reason)`.
    public var description: String {
        switch self {
        case .couldNotParse(let path, let reason): return "MapperError.couldNotParse(\(path): \(reason))"
        }
    }

    /// "The server's answer could not be read.", for a screen.
    public var errorDescription: String? {
        switch self {
        case .couldNotParse: return "The server's answer could not be read."
        }
    }

    /// Where the answer went wrong (`$[1].price_was: missing field`), for a detail line.
    public var failureReason: String? {
        switch self {
        case .couldNotParse(let path, let reason): return "\(path): \(reason)"
        }
    }
}
