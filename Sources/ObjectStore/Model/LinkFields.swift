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
    /// Appends each object to `linked` and returns their primary keys, in order.
    func linkKeys(into linked: inout [any StoreObject]) -> [StoreValue]
}

extension Array: LinkedObjectList where Element: StoreObject {
    func linkKeys(into linked: inout [any StoreObject]) -> [StoreValue] {
        var keys: [StoreValue] = []
        keys.reserveCapacity(count)
        linked.reserveCapacity(linked.count + count)
        for object in self {
            linked.append(object)
            keys.append(object.primaryKeyValue)
        }
        return keys
    }
}
