import Foundation

/// A model the store can hold: a `Codable` struct or final class with a primary key.
///
///     struct Pizza: StoreObject {
///         static var primaryKey: KeyPath<Pizza, Int> { \.id }   // state the type: Swift cannot infer it
///         static var indexedProperties: [String] { ["name"] }
///         var id: Int
///         var name: String
///         var price: Double
///         var categories: [Category]   // a to-many link: Category is a StoreObject too
///     }
///
/// The schema (field names and kinds) is derived once per type from its `Decodable`
/// conformance. Fields of another `StoreObject` type are links: stored by primary key, and
/// added with the object that refers to them.
public protocol StoreObject: Codable {
    /// The type of the primary key: `Int` or `String` (any ``StorePrimaryKey``).
    associatedtype PrimaryKey: StorePrimaryKey

    /// The key path of the primary key, e.g. `\Pizza.id`.
    static var primaryKey: KeyPath<Self, PrimaryKey> { get }

    /// Names of the fields that get a secondary index for `==` and `IN` queries.
    static var indexedProperties: [String] { get }

    /// The name of the primary-key field; derived from ``primaryKey`` by default.
    static var primaryKeyName: String { get }
}

extension StoreObject {
    /// No secondary indexes by default.
    public static var indexedProperties: [String] { [] }

    /// The field name taken from the key path's description (`\Pizza.id` → `id`).
    public static var primaryKeyName: String { keyPathName(primaryKey) ?? "id" }

    var primaryKeyValue: StoreValue { self[keyPath: Self.primaryKey].storeValue }
}

/// A type usable as a primary key: `Int`, `String`, `UUID` and the sized integers.
public protocol StorePrimaryKey: Hashable, Codable, Sendable {
    /// The stored form of the key.
    var storeValue: StoreValue { get }
}

extension Int: StorePrimaryKey {
    /// The stored form of the key.
    public var storeValue: StoreValue { .int(Int64(self)) }
}
extension Int64: StorePrimaryKey {
    /// The stored form of the key.
    public var storeValue: StoreValue { .int(self) }
}
extension Int32: StorePrimaryKey {
    /// The stored form of the key.
    public var storeValue: StoreValue { .int(Int64(self)) }
}
extension String: StorePrimaryKey {
    /// The stored form of the key.
    public var storeValue: StoreValue { .string(self) }
}
extension UUID: StorePrimaryKey {
    /// The stored form of the key.
    public var storeValue: StoreValue { .uuid(self) }
}

/// The property name a key path names (`\Pizza.price` → `price`, `\A.b.c` → `b.c`).
func keyPathName(_ keyPath: AnyKeyPath) -> String? {
    // `debugDescription` itself: `String(describing:)` would first look for two conformances
    // the key path does not have, and each failed lookup scans every conformance record of
    // the program (about a millisecond at a store's first open in a large program).
    let text = keyPath.debugDescription
    guard text.hasPrefix("\\"), let dot = text.firstIndex(of: ".") else { return nil }
    let name = String(text[text.index(after: dot)...])
    if name.isEmpty || name.contains("<") || name.contains("(") { return nil }
    return name.replacingOccurrences(of: "?", with: "").replacingOccurrences(of: "!", with: "")
}
