import Foundation
import GRDB
import ObjectStore

// The scale probe: what opening a big store file costs in time and in memory, measured in a
// fresh process per step so that the resident memory is the step's own (issue 15's figures).
// `run.sh` runs this executable with STORE_SCALE_PROBE set, once per step, instead of the
// benchmarks:
//
//     STORE_SCALE_PROBE="write ours 1000000 /tmp/x.store"    fills a file (one transaction)
//     STORE_SCALE_PROBE="open ours /tmp/x.store"             opens it and counts the pizzas
//     STORE_SCALE_PROBE="read ours /tmp/x.store 1000"        opens, counts, reads 1,000 by key
//     STORE_SCALE_PROBE="write-indexed ours 1000000 /tmp/y.store"   fills a file of pizzas with an
//                                                            index on their price
//     STORE_SCALE_PROBE="query ours /tmp/y.store"            opens it and counts the pizzas of one
//                                                            price: the first query by an indexed field
//     STORE_SCALE_PROBE="rewrite ours /tmp/x.store 1000"     opens, then rewrites every pizza
//                                                            once in 1,000 transactions
//
// (`grdb` in place of `ours` does the same with GRDB over SQLite.) Each step prints one line of
// JSON: what it did, the seconds it took (opening and counting, plus the reads), and the
// process's resident memory afterwards and at its peak (VmRSS and VmHWM, in KiB).

/// Runs the probe step named by STORE_SCALE_PROBE and exits, if it is set.
func runScaleProbeIfAsked() {
    guard let command = ProcessInfo.processInfo.environment["STORE_SCALE_PROBE"] else { return }
    let words = command.split(separator: " ").map(String.init)
    do {
        guard words.count >= 3, let step = words.first else { throw ProbeError.usage(command) }
        let flavour = words[1]
        let start = DispatchTime.now().uptimeNanoseconds
        var count = 0
        switch (step, flavour) {
        case ("write", "ours"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let store = try Store(configuration: .file(url: URL(fileURLWithPath: words[3]), durability: .relaxed))
            try store.write { tx in try tx.add(makePizzas(total), update: .modified) }
            count = store.objects(Pizza.self).count
        case ("write", "grdb"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let queue = try grdbQueue(makePizzas(total), path: words[3])
            count = try queue.read { try PizzaRecord.fetchCount($0) }
        case ("write-indexed", "ours"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let store = try Store(configuration: .file(url: URL(fileURLWithPath: words[3]), durability: .relaxed))
            try store.write { tx in try tx.add(makePizzas(total).map(IndexedPizza.init), update: .modified) }
            count = store.objects(IndexedPizza.self).count
        case ("write-indexed", "grdb"):
            guard words.count == 4, let total = Int(words[2]) else { throw ProbeError.usage(command) }
            let queue = try grdbQueue(makePizzas(total), path: words[3])
            try queue.write { db in try db.create(index: "pizzaByPrice", on: "pizza", columns: ["price"]) }
            count = try queue.read { try PizzaRecord.fetchCount($0) }
        case ("query", "ours"):
            let store = try Store(configuration: .file(url: URL(fileURLWithPath: words[2]), objectTypes: [IndexedPizza.self]))
            count = store.objects(IndexedPizza.self).filter("price == %@", probePrice).count
        case ("query", "grdb"):
            let queue = try DatabaseQueue(path: words[2])
            count = try queue.read { try PizzaRecord.filter(Column("price") == probePrice).fetchCount($0) }
        case ("open", "ours"), ("read", "ours"):
            let store = try Store(configuration: .file(url: URL(fileURLWithPath: words[2])))
            count = store.objects(Pizza.self).count
            if step == "read" {
                let reads = words.count > 3 ? Int(words[3]) ?? 1_000 : 1_000
                for key in probeKeys(reads, among: count) where store.object(ofType: Pizza.self, forPrimaryKey: key) == nil {
                    throw ProbeError.missing(key)
                }
            }
        case ("open", "grdb"), ("read", "grdb"):
            let queue = try DatabaseQueue(path: words[2])
            count = try queue.read { try PizzaRecord.fetchCount($0) }
            if step == "read" {
                let reads = words.count > 3 ? Int(words[3]) ?? 1_000 : 1_000
                try queue.read { db in
                    for key in probeKeys(reads, among: count) where try PizzaRecord.fetchOne(db, key: key) == nil {
                        throw ProbeError.missing(key)
                    }
                }
            }
        case ("rewrite", _):
            guard words.count == 4, let transactions = Int(words[3]) else { throw ProbeError.usage(command) }
            let rewrite = try rewriteAll(flavour, path: words[2], transactions: transactions)
            print(rewrite.json)
            exit(0)
        default:
            throw ProbeError.usage(command)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let memory = residentMemory()
        print(#"{"step": "\#(step)", "flavour": "\#(flavour)", "count": \#(count), "seconds": \#(seconds), "rssKiB": \#(memory.current), "peakKiB": \#(memory.peak)}"#)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("scale probe: \(error)\n".utf8))
        exit(1)
    }
}

/// The price the `query` step looks for (one pizza in 2,000 has it).
let probePrice = 1234

enum ProbeError: Error {
    case usage(String)
    case missing(Int)
}

/// `reads` primary keys spread evenly over 1…`count`.
func probeKeys(_ reads: Int, among count: Int) -> [Int] {
    guard count > 0, reads > 0 else { return [] }
    return (0..<reads).map { 1 + ($0 * count) / reads }
}

/// VmRSS and VmHWM of this process, in KiB (0 where /proc is not there).
func residentMemory() -> (current: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
    func field(_ name: String) -> Int {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return (field("VmRSS"), field("VmHWM"))
}
