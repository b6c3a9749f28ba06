import Foundation

extension ObjectSchema {
    /// Whether a field links to other objects, and how.
    enum LinkKind: UInt8 {
        case none, link, linkList

        init(_ kind: FieldKind) {
            switch kind {
            case .link: self = .link
            case .linkList: self = .linkList
            default: self = .none
            }
        }
    }
}

/// An array of models, as a to-many link field holds it.
protocol LinkedObjectList {
    /// Appends each object of the list at `pointer` (a value of this type) to `linked` and
    /// returns their primary keys, in order.
    static func linkKeys(at pointer: UnsafeRawPointer, into linked: inout [any StoreObject]) -> [StoreValue]
}

extension Array: LinkedObjectList where Element: StoreObject {
    static func linkKeys(at pointer: UnsafeRawPointer, into linked: inout [any StoreObject]) -> [StoreValue] {
        let list = pointer.assumingMemoryBound(to: [Element].self)
        var keys: [StoreValue] = []
        keys.reserveCapacity(list.pointee.count)
        linked.reserveCapacity(linked.count + list.pointee.count)
        // A key stored in the model itself is read where it lies, not through its key path.
        let offset = MemoryLayout<Element>.offset(of: Element.primaryKey)
        for object in list.pointee {
            linked.append(object)
            if let offset {
                keys.append(Swift.withUnsafeBytes(of: object) { bytes in
                    (bytes.baseAddress! + offset).assumingMemoryBound(to: Element.PrimaryKey.self).pointee.storeValue
                })
            } else {
                keys.append(object.primaryKeyValue)
            }
        }
        return keys
    }
}

/// The to-many link types (`[Category]`) a transaction's encoders have met, each found by a
/// comparison of type identifiers rather than a dynamic cast per object.
final class LinkListTypes {
    private var known: [(ObjectIdentifier, (any LinkedObjectList.Type)?)] = []

    /// How a field of type `type` lists linked objects, if it does; remembered in `types`
    /// when given.
    static func type<T>(of type: T.Type, in types: LinkListTypes?) -> (any LinkedObjectList.Type)? {
        guard let types else { return type as? any LinkedObjectList.Type }
        let id = ObjectIdentifier(type)
        for (known, listType) in types.known where known == id { return listType }
        let listType = type as? any LinkedObjectList.Type
        types.known.append((id, listType))
        return listType
    }
}
