/// Errors the store raises.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model's shape cannot be stored; raised when its schema is derived (at registration
    /// or first use), never as a crash at first write.
    case unsupportedModel(type: String, reason: String)
    /// `add(_:update: .error)` met an object whose primary key is already stored.
    case duplicatePrimaryKey(type: String, key: String)
    /// `write` was called inside another `write` on the same thread.
    case nestedWrite
    /// A ``Transaction`` was used after its `write` block returned.
    case transactionClosed

    /// A readable explanation.
    public var description: String {
        switch self {
        case .unsupportedModel(let type, let reason): return "\(type) cannot be stored: \(reason)"
        case .duplicatePrimaryKey(let type, let key): return "\(type) with primary key \(key) already exists"
        case .nestedWrite: return "write() called inside a write transaction"
        case .transactionClosed: return "the transaction was used after its write block ended"
        }
    }
}
