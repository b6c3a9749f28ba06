import Foundation

/// One change in a commit, in the order it happened. A commit's records are what a
/// file-backed store appends to its log (every case is `Codable`).
enum ChangeRecord: Codable, Equatable {
    /// A new object (the whole row).
    case insert(table: String, row: [StoreValue])
    /// Changed fields of an existing object.
    case update(table: String, key: StoreValue, fields: [Int], values: [StoreValue])
    /// A deleted object.
    case delete(table: String, key: StoreValue)
}
