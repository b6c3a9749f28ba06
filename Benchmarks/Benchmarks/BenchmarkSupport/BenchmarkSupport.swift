import Benchmark
import Foundation

// What every suite shares: the smoke switch, the configuration shape, and the benchmark names
// `report.py` reads.

/// `STREAMS_BENCHMARK_SMOKE=1` (set by `run.sh --smoke`): each benchmark runs for a moment only,
/// on less data, so CI proves the benchmarks build and run without spending minutes measuring.
public let isSmoke = ProcessInfo.processInfo.environment["STREAMS_BENCHMARK_SMOKE"] != nil

/// A suite's configuration: wall clock, throughput and allocation count; in smoke runs no
/// warm-up and at most `smokeIterations` iterations of 10 ms.
public func suiteConfiguration(warmupIterations: Int, maxDuration: Duration, maxIterations: Int, smokeIterations: Int = 1) -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: isSmoke ? 0 : warmupIterations,
        scalingFactor: .one,
        maxDuration: isSmoke ? .milliseconds(10) : maxDuration,
        maxIterations: isSmoke ? smokeIterations : maxIterations
    )
}

/// Registers one flavour of a scenario as `<name> (n=<operations>) [<flavour>]`: `report.py`
/// pairs the flavours by scenario and divides the measured figures by n. A thrown error stops
/// the run, naming the scenario. Returns the benchmark (`nil` when package-benchmark refused it).
@discardableResult
public func registerScenario(_ name: String, flavour: String, operations: Int, configuration: Benchmark.Configuration, _ body: @escaping (Benchmark) throws -> Void) -> Benchmark? {
    Benchmark("\(name) (n=\(operations)) [\(flavour)]", configuration: configuration) { benchmark in
        do { try body(benchmark) } catch { fatalError("\(name) [\(flavour)]: \(error)") }
    }
}
