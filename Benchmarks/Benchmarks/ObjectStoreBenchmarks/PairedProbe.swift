import Benchmark
import Foundation

// The paired probe: the ObjectStore scenarios measured again with their flavours taking turns,
// one iteration each per round, so that both sides of a ratio are measured in the same moments
// of a shared machine. `run.sh` runs this executable with STORE_PAIRED_PROBE="ROUNDS" (and a
// fixed hash seed, SWIFT_DETERMINISTIC_HASHING=1) after the package-benchmark run; report.py
// prints the median of the rounds' ratios beside the package-benchmark ratio (whose flavours
// run one after the other, seconds or minutes apart).
//
//     STORE_PAIRED_PROBE="15"    every scenario with an ours and a GRDB flavour, 15 rounds
//
// One line of JSON per scenario: each flavour's fastest iteration per operation and every
// round's ratio ours/GRDB.

/// Runs the paired probe if STORE_PAIRED_PROBE is set, and exits. Called once every scenario is
/// registered (`PairedProbe.shared` holds them all).
func runPairedProbeIfAsked() {
    guard let value = ProcessInfo.processInfo.environment["STORE_PAIRED_PROBE"] else { return }
    guard let rounds = Int(value), rounds > 0 else {
        FileHandle.standardError.write(Data("paired probe: STORE_PAIRED_PROBE must be a number of rounds, not \(value)\n".utf8))
        exit(1)
    }
    PreparedData.shared.keepsEveryScenario = true   // the flavours take turns: each keeps its store
    let (scenarios, order) = PairedProbe.shared.registered()
    // The rewrite of 1,000,000 objects (seconds per iteration) has a probe of its own.
    for scenario in order where !scenario.hasPrefix("Rewrite") {
        guard let ours = scenarios[scenario]?["ours"], let grdb = scenarios[scenario]?["GRDB"] else { continue }
        // One iteration each first: a scenario's first iteration builds what later ones reuse.
        _ = measure(ours.benchmark)
        _ = measure(grdb.benchmark)
        var oursBest = Double.infinity, grdbBest = Double.infinity
        var ratios: [Double] = []
        for round in 0..<rounds {
            // Alternate which goes first, so neither always follows the other's clean-up.
            let first = round % 2 == 0 ? ours : grdb, second = round % 2 == 0 ? grdb : ours
            let a = measure(first.benchmark) / Double(first.operations)
            let b = measure(second.benchmark) / Double(second.operations)
            let (o, g) = round % 2 == 0 ? (a, b) : (b, a)
            oursBest = min(oursBest, o)
            grdbBest = min(grdbBest, g)
            ratios.append(o / g)
        }
        PreparedData.shared.keep(nil, for: "")
        let ratioList = ratios.map { String(format: "%.4f", $0) }.joined(separator: ", ")
        print(#"{"step": "paired", "scenario": "\#(jsonEscaped(scenario))", "rounds": \#(rounds), "oursSeconds": \#(oursBest), "grdbSeconds": \#(grdbBest), "ratios": [\#(ratioList)]}"#)
    }
    exit(0)
}

/// The scenarios registered (by `scenario(_:_:operations:long:_:)`), for the paired probe.
final class PairedProbe: @unchecked Sendable {
    static let shared = PairedProbe()
    private let lock = NSLock()
    private var scenarios: [String: [String: (benchmark: Benchmark, operations: Int)]] = [:]
    private var order: [String] = []

    func add(_ benchmark: Benchmark, scenario: String, flavour: String, operations: Int) {
        lock.withLock {
            if scenarios[scenario] == nil { order.append(scenario) }
            scenarios[scenario, default: [:]][flavour] = (benchmark, operations)
        }
    }

    /// Scenario → flavour → its benchmark and operations per iteration; the scenarios in the
    /// order they were registered.
    func registered() -> ([String: [String: (benchmark: Benchmark, operations: Int)]], [String]) {
        lock.withLock { (scenarios, order) }
    }
}

/// Seconds between the benchmark's `startMeasurement()` and `stopMeasurement()` in one run of
/// its body (the whole body when it calls neither).
private func measure(_ benchmark: Benchmark) -> Double {
    var start: UInt64 = 0, stop: UInt64 = 0
    benchmark.measurementPreSynchronization = { _ in start = DispatchTime.now().uptimeNanoseconds }
    benchmark.measurementPostSynchronization = { _ in if stop == 0 { stop = DispatchTime.now().uptimeNanoseconds } }
    benchmark.run()
    if stop == 0 { stop = DispatchTime.now().uptimeNanoseconds }
    return Double(stop - start) / 1e9
}

private func jsonEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
}
