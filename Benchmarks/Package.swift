// swift-tools-version: 6.1
import PackageDescription

import class Foundation.ProcessInfo

// Benchmarks for ReactiveMVVM, in their own package so the library keeps zero dependencies.
// Each suite is an executable under Benchmarks/<Name>/ driven by ordo-one/benchmark
// (`swift package benchmark`, or `./run.sh`). Build in release only.

// SwiftPM names a path dependency after its folder. When the repository's folder is itself
// called "Benchmarks" that name collides with this package's own, so `run.sh` then mirrors the
// library into .build/ and points REACTIVEMVVM_ROOT at the mirror.
let libraryPath = ProcessInfo.processInfo.environment["REACTIVEMVVM_ROOT"] ?? ".."

let package = Package(
    name: "ReactiveMVVMBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ReactiveMVVM", path: libraryPath),
        // The MallocInterposer trait counts allocations; listing the trait explicitly also
        // leaves out the Linux runtime interposer the package would otherwise pull in.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/BenchmarkSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "StreamsBenchmarks",
            dependencies: [
                .product(name: "Streams", package: "ReactiveMVVM"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
            ],
            path: "Benchmarks/StreamsBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ObjectStoreBenchmarks",
            dependencies: [
                .product(name: "ObjectStore", package: "ReactiveMVVM"),
                .product(name: "Streams", package: "ReactiveMVVM"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/ObjectStoreBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "HeadlessUIBenchmarks",
            dependencies: [
                .product(name: "HeadlessUI", package: "ReactiveMVVM"),
                .product(name: "MVVM", package: "ReactiveMVVM"),
                .product(name: "Repository", package: "ReactiveMVVM"),
                .product(name: "Streams", package: "ReactiveMVVM"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/HeadlessUIBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StreamsObservationBenchmarks",
            dependencies: [
                .product(name: "StreamsObservation", package: "ReactiveMVVM"),
                .product(name: "ObjectStore", package: "ReactiveMVVM"),
                .product(name: "Repository", package: "ReactiveMVVM"),
                .product(name: "Streams", package: "ReactiveMVVM"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
            ],
            path: "Benchmarks/StreamsObservationBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
