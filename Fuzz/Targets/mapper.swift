// Fuzz target: the Repository JSON mapper (decode → one write → view models).
// Any bytes → view models or `MapperError.couldNotParse`; a failed mapping leaves the store
// exactly as it was, a successful one leaves exactly the response's models in it.
// Built and run by Scripts/fuzz.sh (libFuzzer, `swiftc -sanitize=fuzzer,address`).
import Foundation
import ObjectStore
import Repository

struct Pizza: StoreObject, Equatable {
    static var primaryKey: KeyPath<Pizza, Int> { \.id }
    var id: Int
    var name: String
    var priceWas: Double
}

let initial = [Pizza(id: 1, name: "Margherita", priceWas: 7.5), Pizza(id: 2, name: "Marinara", priceWas: 6)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMapper(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    let store = Store()
    do {
        try store.register(Pizza.self)
        try store.write { try $0.add(initial) }
    } catch {
        preconditionFailure("store setup failed: \(error)")
    }
    let mapper = Mapper<[Pizza], Pizza, Int>(store: store) { $0.id }
    let stored = { store.objects(Pizza.self).sorted(byKeyPath: "id").toArray() }
    do {
        let ids = try mapper.map(body)
        let decoded = try JSONDecoder.fuzzSnakeCase.decode([Pizza].self, from: body)
        precondition(ids == decoded.map(\.id), "view models differ from the response")
        // Later duplicates win (.modified upsert); the store holds exactly the response's ids.
        var latest: [Int: Pizza] = [:]
        for pizza in decoded { latest[pizza.id] = pizza }
        let expected = latest.values.sorted { $0.id < $1.id }
        let actual = stored()
        precondition(actual.map(\.id) == expected.map(\.id), "store ids \(actual.map(\.id)) != response ids \(expected.map(\.id))")
    } catch let error as MapperError {
        _ = error.description
        precondition(stored() == initial, "a failed mapping changed the store: \(error)")
    } catch {
        preconditionFailure("not a MapperError: \(error)")
    }
    return 0
}

extension JSONDecoder {
    static var fuzzSnakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
