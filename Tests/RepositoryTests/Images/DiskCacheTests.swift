import Foundation
@testable import Repository
import Testing
import TestSupport

@Suite(.resourceCheck) struct DiskCacheTests {
    func temporaryDirectory() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("DiskCacheTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    @Test func storesReadsAndRemovesByHashedName() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = DiskCache(directory: root.appendingPathComponent("c", isDirectory: true))
        let url = URL(string: "https://example.com/../a b/%2e%2e/x.png?q=/../")!
        #expect(cache.data(for: url) == nil)
        cache.store(Data("bytes".utf8), for: url)
        #expect(cache.data(for: url) == Data("bytes".utf8))
        #expect(cache.fileURL(for: url).lastPathComponent == SHA256.hex(url.absoluteString))
        #expect(cache.fileURL(for: url).deletingLastPathComponent().standardizedFileURL == cache.directory.standardizedFileURL)
        cache.store(Data("newer".utf8), for: url)
        #expect(cache.data(for: url) == Data("newer".utf8))
        cache.remove(for: url)
        #expect(cache.data(for: url) == nil)
    }

    @Test func differentURLsGetDifferentFiles() {
        let a = DiskCache.fileName(for: URL(string: "https://example.com/a")!)
        let b = DiskCache.fileName(for: URL(string: "https://example.com/A")!)
        let c = DiskCache.fileName(for: URL(string: "https://example.com/a?")!)
        #expect(Set([a, b, c]).count == 3)
    }

    @Test func removeAllLeavesForeignFilesAlone() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = DiskCache(directory: root)
        cache.store(Data("1".utf8), for: URL(string: "https://example.com/1")!)
        cache.store(Data("2".utf8), for: URL(string: "https://example.com/2")!)
        try Data("keep".utf8).write(to: root.appendingPathComponent("notes.txt"))
        cache.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["notes.txt"])
    }
}
