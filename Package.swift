// swift-tools-version: 6.3
import PackageDescription

// ReactiveMVVM: reactive streams, an embedded object store, repositories and a headless UI layer.
// The library has no package dependencies; benchmarks live in their own package under Benchmarks/.
let package = Package(
    name: "ReactiveMVVM",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
        .library(name: "StreamsBlocking", targets: ["StreamsBlocking"]),
        .library(name: "ObjectStore", targets: ["ObjectStore"]),
        .library(name: "Repository", targets: ["Repository"]),
        .library(name: "Differentiator", targets: ["Differentiator"]),
        .library(name: "HeadlessUI", targets: ["HeadlessUI"]),
        .library(name: "MVVM", targets: ["MVVM"]),
        .library(name: "StreamsObservation", targets: ["StreamsObservation"]),
        .library(name: "Pizzaiolo", targets: ["Pizzaiolo"]),
        .library(name: "Tracks", targets: ["Tracks"]),
        .executable(name: "pizzaiolo", targets: ["PizzaioloCLI"]),
    ],
    targets: [
        // The package's locks (`Lock`, `RecursiveLock`, `Locked`), `package` symbols only: a target
        // of their own so that the store's storage code takes them without the reactive library.
        .target(name: "Locking"),
        .target(name: "Streams", dependencies: ["Locking"]),
        .target(name: "StreamsTesting", dependencies: ["Streams"]),
        // RxBlocking's peer: wait for a sequence's elements on the calling thread, in tests.
        .target(name: "StreamsBlocking", dependencies: ["Streams"]),
        // The processor's CRC-32C instruction for the store file's checksums (C, because Swift
        // has no way to ask for one instruction); ObjectStore falls back to tables without it.
        .target(name: "CRC32CHardware"),
        // The list-change vocabulary, beside Locking: ListDifference (the one change value, made by
        // the store at a commit and applied as it is by a table), change sets, section models, the
        // diff and its identity protocols (RxDataSources' Differentiator), with no view names and
        // no dependency, so a view model or a SwiftUI file can import it beside SwiftUI.
        .target(name: "Differentiator"),
        .target(name: "ObjectStore", dependencies: ["Streams", "Locking", "Differentiator", "CRC32CHardware"]),
        .target(name: "Repository", dependencies: ["Streams", "Locking", "Differentiator", "ObjectStore"]),
        // Like RxCocoa, the headless UI knows nothing of storage or networking.
        .target(name: "HeadlessUI", dependencies: ["Streams", "Locking", "Differentiator"]),
        // The glue a view model needs between the layers: a Variable bound two-way to a stored
        // object, Repository's image loader feeding HeadlessUI's image views.
        .target(name: "MVVM", dependencies: ["Streams", "ObjectStore", "Repository", "HeadlessUI"]),
        // SwiftUI's way in: Drivers, control inputs, Actions and live queries as main-actor
        // `@Observable` state (Observation ships with the toolchain); no view module.
        .target(name: "StreamsObservation", dependencies: ["Streams", "Differentiator", "ObjectStore", "Repository"]),
        // The sample apps and their command-line walkthrough.
        .target(name: "Pizzaiolo", dependencies: ["Streams", "Locking", "ObjectStore", "Repository", "HeadlessUI", "MVVM"]),
        .target(name: "Tracks", dependencies: ["Streams", "Locking", "ObjectStore", "Repository", "HeadlessUI", "MVVM"]),
        // Both samples' command lines; the product (and so `swift run pizzaiolo`) keeps the
        // lower-case name, the folder does not, so no two paths differ only in case.
        .executableTarget(name: "PizzaioloCLI", dependencies: ["Pizzaiolo", "Tracks", "Repository", "ObjectStore", "HeadlessUI", "Streams"]),
        // A process the file store's crash tests kill at random moments.
        .executableTarget(name: "StoreCrashHelper", dependencies: ["ObjectStore", "Streams"]),
        // Shared helpers for every test target (resource-leak trait, small utilities).
        .target(name: "TestSupport", dependencies: ["Streams", "StreamsTesting"], path: "Tests/TestSupport"),
        .testTarget(name: "StreamsTests", dependencies: ["Streams", "Locking", "StreamsTesting", "TestSupport"]),
        .testTarget(name: "StreamsTestingTests", dependencies: ["Streams", "StreamsTesting", "TestSupport"]),
        .testTarget(name: "StreamsBlockingTests", dependencies: ["Streams", "StreamsBlocking", "StreamsTesting", "TestSupport"]),
        .testTarget(name: "ObjectStoreTests", dependencies: ["ObjectStore", "Differentiator", "Locking", "Streams", "StreamsTesting", "TestSupport", "StoreCrashHelper"]),
        .testTarget(name: "RepositoryTests", dependencies: ["Repository", "Differentiator", "Locking", "ObjectStore", "Streams", "StreamsTesting", "StreamsBlocking", "TestSupport"]),
        .testTarget(name: "HeadlessUITests", dependencies: ["HeadlessUI", "Streams", "StreamsTesting", "StreamsBlocking", "TestSupport"]),
        .testTarget(name: "MVVMTests", dependencies: ["MVVM", "HeadlessUI", "ObjectStore", "Repository", "Streams", "StreamsTesting", "TestSupport"]),
        .testTarget(name: "PizzaioloTests", dependencies: ["Pizzaiolo", "Locking", "HeadlessUI", "ObjectStore", "Repository", "Streams", "StreamsTesting", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "PizzaioloCLITests", dependencies: ["PizzaioloCLI", "Pizzaiolo", "ObjectStore", "TestSupport"]),
        .testTarget(name: "StreamsObservationTests", dependencies: ["StreamsObservation", "Pizzaiolo", "Locking", "Repository", "ObjectStore", "Differentiator", "Streams", "StreamsTesting", "TestSupport"]),
        .testTarget(name: "TracksTests", dependencies: ["Tracks", "HeadlessUI", "ObjectStore", "Repository", "Streams", "StreamsTesting", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
