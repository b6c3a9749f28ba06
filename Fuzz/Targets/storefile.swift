// Fuzz target: opening a store file (ObjectStore on disk).
// Any bytes → an open store or a typed `StoreError`; never another error or a crash. A file
// that opened takes a new commit and then reopens with it (the torn tail, if any, is gone).
// Record checksums are not verified here, so the fuzzer reaches the record decoders.
// Built and run by Scripts/fuzz.sh (libFuzzer, `swiftc -sanitize=fuzzer,address`).
import Foundation
import ObjectStore

struct Memo: StoreObject {
    static var primaryKey: KeyPath<Memo, Int> { \.id }
    static var indexedProperties: [String] { ["topic"] }
    var id: Int
    var topic: String
    var text: String
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-storefile-\(getpid())")
let url = directory.appendingPathComponent("fuzz.store")

func open() throws -> Store {
    try Store(configuration: .file(url: url, objectTypes: [Memo.self], durability: .relaxed))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _storeFileVerifiesChecksums = false
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let input = Data(bytes: data, count: size)
    try! input.write(to: url)
    var opened = false
    do {
        // Open, read everything, commit one more memo; then close (end of scope) and reopen.
        let next: Int = try {
            let store = try open()
            opened = true
            let memos = store.objects(Memo.self)
            _ = memos.map(\.text)
            _ = memos.filter("topic == %@", "a").count
            let next = (memos.max(ofProperty: "id") as Int? ?? 0) &+ 1
            try store.write { try $0.add(Memo(id: next, topic: "a", text: "fuzz"), update: .modified) }
            return next
        }()
        let reopened = try open()
        precondition(reopened.object(ofType: Memo.self, forPrimaryKey: next)?.text == "fuzz", "a commit was lost on reopen")
    } catch let error as StoreError {
        _ = error.description
        if !opened {
            let after = (try? Data(contentsOf: url)) ?? Data()
            precondition(after == input, "a failed open changed the file: \(error)")
        } else if case .io = error {
            preconditionFailure("an opened store failed to write: \(error)")
        }
    } catch {
        preconditionFailure("not a StoreError: \(error)")
    }
    return 0
}
