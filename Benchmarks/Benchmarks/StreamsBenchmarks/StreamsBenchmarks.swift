import Benchmark
import BenchmarkSupport
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
    registerSharingBenchmarks()
    registerFanOutBenchmarks()
    registerFlatMapBenchmarks()
    registerFlatMapLatestBenchmarks()
    registerCombineLatestBenchmarks()
    registerZipBenchmarks()
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

/// The configuration of every benchmark in the suite.
var configuration: Benchmark.Configuration { suiteConfiguration(warmupIterations: 3, maxDuration: .seconds(2), maxIterations: 2_000, smokeIterations: 2) }

func scenario(_ name: String, _ flavor: Flavor, operations: Int, _ body: @escaping (Benchmark) -> Void) {
    registerScenario(name, flavour: flavor.rawValue, operations: operations, configuration: configuration, body)
}

// The stages shared by every chain, so that all three flavours run the same closures.
let increment: @Sendable (Int) -> Int = { $0 &+ 1 }
let isNonNegative: @Sendable (Int) -> Bool = { $0 >= 0 }
