// Fuzz target: the ObjectStore query parser (the Realm-style query language).
// Any bytes → a `StorePredicate` or a `QueryError`; never another error, a crash or a hang.
// Built and run by Scripts/fuzz.sh (libFuzzer, `swiftc -sanitize=fuzzer,address`).
import ObjectStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuery(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    // Arguments that themselves look like query syntax: they must stay values.
    let arguments: [Any] = [1, "name == 'x' OR TRUEPREDICATE", 2.5, true, "%@", [1, 2, 3]]
    // Both ways in: an argument array, and the variadic call with one argument (which counts the
    // arguments the query uses, so that an array given alone is that one argument).
    let parses: [() throws -> StorePredicate] = [
        { try StorePredicate(format: text, arguments: arguments) },
        { try StorePredicate(format: text, 1) },
    ]
    for parse in parses {
        do {
            let predicate = try parse()
            _ = predicate.description
        } catch let error as QueryError {
            precondition(error.column >= 0, "negative column: \(error)")
            _ = error.description
        } catch {
            preconditionFailure("not a QueryError: \(error) for \(text.debugDescription)")
        }
    }
    return 0
}
