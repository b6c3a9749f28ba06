import Foundation
import Locking

/// The linked objects a transaction has written (or found stored as they are), kept as the
/// values themselves, so that the same value met again, carried by another object, is known
/// without being encoded: a `.modified` write of 1,000 pizzas that link the same 8 categories
/// encodes each category once, not 1,000 times.
///
/// A value is known again only when its bytes are those of a value kept here, and only for a
/// model whose equal bytes mean an equal value (``bytesTellValues(_:)``): a struct whose stored
/// properties are all plain values (numbers, `Bool`, `String`, `Date`, `UUID`, or optionals of
/// them). A string's bytes may point to its characters, which never change while
/// the kept copy shares them, so two such values with the same bytes are the same value. A
/// value with a link, a class, an array or anything else is encoded as ever.
///
/// What is known holds only while the transaction's kept row of the object
/// (`Transaction.linkedRows`) does: any write or delete of an object of the model forgets it
/// (`generation` moves on).
final class LinkedValues {
    /// A small open-addressed table, in parallel arrays (a look compares identifiers and
    /// bytes without copying an entry): a value's entry lies in one of `probes` places from the
    /// one its bytes hash to. A place whose generation is -1 is empty.
    private static let places = 128, probes = 4
    @exclusivity(unchecked) private var types = [ObjectIdentifier?](repeating: nil, count: places)
    @exclusivity(unchecked) private var generations = [Int](repeating: -1, count: places)
    @exclusivity(unchecked) private var bytes = [[UInt8]](repeating: [], count: places)
    @exclusivity(unchecked) private var keys = [StoreValue](repeating: .null, count: places)
    /// The values, held so that what their bytes point to stays alive and shared.
    private var values = [Any?](repeating: nil, count: places)
    /// Where the next entry goes when every place it may take is used.
    private var victim = 0
    /// Moves on whenever a kept row of a linked object is forgotten; entries of an older
    /// generation are not trusted.
    var generation = 0

    /// The primary key of `object` when a value with the same bytes is kept (of the current
    /// generation).
    @inline(__always)
    func key<T>(of object: T) -> StoreValue? {
        let type = ObjectIdentifier(T.self), generation = generation
        return withUnsafeBytes(of: object) { mine -> StoreValue? in
            let first = Self.hash(mine, type)
            for probe in 0..<Self.probes {
                let i = (first + probe) & (Self.places - 1)
                if generations[i] == -1 { return nil }
                guard generations[i] == generation, types[i] == type, bytes[i].count == mine.count else { continue }
                if bytes[i].withUnsafeBytes({ memcmp($0.baseAddress!, mine.baseAddress!, mine.count) == 0 }) { return keys[i] }
            }
            return nil
        }
    }

    /// Keeps `object`, whose stored row now equals its row (its primary key is `key`).
    func keep<T>(_ object: T, key: StoreValue) {
        let type = ObjectIdentifier(T.self)
        withUnsafeBytes(of: object) { mine in
            let first = Self.hash(mine, type)
            var place = (first + victim % Self.probes) & (Self.places - 1)
            for probe in 0..<Self.probes {
                let i = (first + probe) & (Self.places - 1)
                if generations[i] != generation {
                    place = i
                    break
                }
            }
            victim &+= 1
            (types[place], generations[place], bytes[place]) = (type, generation, Array(mine))
            (keys[place], values[place]) = (key, object)
        }
    }

    /// A mix of a value's bytes and type.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, _ type: ObjectIdentifier) -> Int {
        var mix = UInt64(UInt(bitPattern: type))
        var i = 0
        while i + 8 <= bytes.count {
            mix = (mix ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            i += 8
        }
        while i < bytes.count {
            mix = (mix ^ UInt64(bytes[i])) &* 0x9E37_79B9_7F4A_7C15
            i += 1
        }
        return Int(truncatingIfNeeded: mix >> 57)
    }

    // MARK: Which models

    nonisolated(unsafe) private static var known: [ObjectIdentifier: Bool] = [:]
    private static let knownLock = Lock()

    /// Whether two values of `object`'s type with the same bytes are equal values, whatever
    /// else they are (see the type's summary); decided once per type, from this value's
    /// stored properties.
    static func bytesTellValues<T>(_ object: T) -> Bool {
        let id = ObjectIdentifier(T.self)
        if let answer = knownLock.withLock({ known[id] }) { return answer }
        let answer = decide(object)
        knownLock.withLock { known[id] = answer }
        return answer
    }

    private static func decide<T>(_ object: T) -> Bool {
        guard !(T.self is AnyClass), !(object is CustomReflectable) else { return false }
        let mirror = Mirror(reflecting: object)
        guard mirror.displayStyle == .struct, mirror.superclassMirror == nil else { return false }
        return mirror.children.allSatisfy { plainTypes.contains(ObjectIdentifier(type(of: $0.value))) }
    }

    /// The property types whose values are their bytes (or point to characters that never
    /// change while shared), and optionals of them.
    private static let plainTypes: Set<ObjectIdentifier> = {
        let types: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self,
            Double.self, Float.self, Bool.self, String.self, Date.self, UUID.self,
            Int?.self, Int8?.self, Int16?.self, Int32?.self, Int64?.self, UInt?.self, UInt8?.self, UInt16?.self, UInt32?.self,
            UInt64?.self, Double?.self, Float?.self, Bool?.self, String?.self, Date?.self, UUID?.self,
        ]
        return Set(types.map { ObjectIdentifier($0) })
    }()
}
