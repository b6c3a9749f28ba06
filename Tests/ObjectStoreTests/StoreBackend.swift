import Foundation
import Testing
@testable import ObjectStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two backends every store test that is not about one of them runs on, as GRDB runs each
/// test on each of its database writers: `@Test(arguments: StoreBackend.allCases)`.
enum StoreBackend: CaseIterable, CustomTestStringConvertible, Sendable {
    /// A private in-memory store.
    case memory
    /// A store in a fresh file (commits written, not synced one by one, so the suite stays
    /// fast; durability has its own tests).
    case file

    var testDescription: String { self == .memory ? "in memory" : "in a file" }

    /// A new, empty store on this backend.
    func makeStore(objectTypes: [any StoreObject.Type] = []) throws -> Store {
        switch self {
        case .memory:
            return try Store(configuration: .inMemory(identifier: "backend-\(UUID().uuidString)", objectTypes: objectTypes))
        case .file:
            let url = Self.directory.appendingPathComponent("\(UUID().uuidString).store")
            return try Store(configuration: .file(url: url, objectTypes: objectTypes, durability: .relaxed))
        }
    }

    /// One folder per test process for the file backend's stores, removed when the process exits.
    private static let directory: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectstore-backend-tests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("objectstore-backend-tests-\(getpid())", isDirectory: true)
            try? FileManager.default.removeItem(at: url)
        }
        return url
    }()
}
