// Fuzz target: a row page laid out by field (format 5), checked without the store around it.
// Any bytes, taken as a page's body for one of a few tables: turning the page round into rows
// never traps, and the quick check that a first count or listing makes of every page accepts
// only pages whose rows the row-by-row check accepts. (The storefile target cannot reach that
// check: it runs on snapshots over 256 KiB, and the fuzzer's inputs are 4 KiB at most.)
// Built and run by Scripts/fuzz.sh (libFuzzer, `swiftc -sanitize=fuzzer,address`).
import ObjectStore

/// Tables the first input byte chooses among: kinds as a table definition spells them, and
/// whether each field may be null.
let tables: [[(String, Bool)]] = [
    [("int", false), ("string", false), ("double", false), ("date", false), ("int", true), ("link<Note>", true), ("link<Note>", true)],
    [("int", false), ("string", true), ("bool", false), ("data", true), ("uuid", true)],
    [("string", false), ("int", false), ("list<link<Category>>", false), ("list<string>", false), ("double", true)],
    [("uuid", false), ("link<Tag>", true), ("list<int>", true), ("date", true)],
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRowPage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let table = tables[Int(data[0]) % tables.count]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let kept = _fieldLaidQuickCheckKeepsItsPromise(body: body, kindNames: table.map(\.0), optional: table.map(\.1))
    precondition(kept != false, "the quick check accepted a page whose rows the row-by-row check refuses")
    return 0
}
