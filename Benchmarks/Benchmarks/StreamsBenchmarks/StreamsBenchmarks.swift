import Benchmark
import Foundation

// The Streams suite: each scenario three times, for Streams ("ours"), OpenCombine (the peer,
// where it has an equivalent) and a plain-closure baseline that does the same work with no
// framework. Names follow `<scenario> (n=<operations>) [<flavour>]`: `run.sh` pairs the
// three flavours by scenario and divides the measured figures by n.
//
// Every benchmark sets its subscriptions up, then measures only the n operations between
// `startMeasurement()` and `stopMeasurement()`, then tears down. So on pumping scenarios the
// wall clock and the allocation count divided by n are per element.

let benchmarks: @Sendable () -> Void = {
    registerSubjectBenchmarks()
    registerChainBenchmarks()
    registerDesignChainBenchmarks()
    registerFanOutBenchmarks()
    registerFlatMapBenchmarks()
    registerFlatMapLatestBenchmarks()
    registerCombineLatestBenchmarks()
    registerObserveOnBenchmarks()
}

/// Elements pushed per measured iteration on pumping scenarios.
let pumpCount = 10_000
/// Subscriptions created and disposed per measured iteration on creating scenarios.
let createCount = 1_000

/// The three implementations of a scenario.
enum Flavor: String {
    case ours
    case openCombine = "OpenCombine"
    case baseline
}

/// `STREAMS_BENCHMARK_SMOKE=1` (set by `run.sh --smoke`) runs each benchmark for a moment only,
/// so CI proves the benchmarks build and run without spending minutes measuring.
let isSmoke = ProcessInfo.processInfo.environment["STREAMS_BENCHMARK_SMOKE"] != nil

/// The configuration of every benchmark in the suite.
var configuration: Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: isSmoke ? 0 : 3,
        scalingFactor: .one,
        maxDuration: isSmoke ? .milliseconds(10) : .seconds(2),
        maxIterations: isSmoke ? 2 : 2_000
    )
}

/// Registers one flavour of a scenario; `body` measures `operations` operations itself.
func scenario(_ name: String, _ flavor: Flavor, operations: Int, _ body: @escaping (Benchmark) -> Void) {
    Benchmark("\(name) (n=\(operations)) [\(flavor.rawValue)]", configuration: configuration, closure: body)
}

// The stages shared by every chain, so that all three flavours run the same closures.
let increment: @Sendable (Int) -> Int = { $0 &+ 1 }
let isNonNegative: @Sendable (Int) -> Bool = { $0 >= 0 }
