import Foundation

/// Raw downloaded bytes stored in one directory, one file per URL, each file named by the
/// SHA-256 of the URL's absolute string (64 hexadecimal digits). No part of the URL ever
/// reaches the file system, so `../`, slashes, percent escapes or odd characters cannot
/// choose where a file goes.
struct DiskCache: Sendable {
    let directory: URL

    init(directory: URL) {
        self.directory = directory
    }

    /// The file that holds the bytes for `url`.
    func fileURL(for url: URL) -> URL {
        directory.appendingPathComponent(Self.fileName(for: url), isDirectory: false)
    }

    /// The cache file name for `url`.
    static func fileName(for url: URL) -> String {
        SHA256.hex(url.absoluteString)
    }

    /// The stored bytes for `url`, or `nil`.
    func data(for url: URL) -> Data? {
        try? Data(contentsOf: fileURL(for: url))
    }

    /// Stores `data` for `url`, atomically (a reader sees the old file or the whole new one).
    func store(_ data: Data, for url: URL) {
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: fileURL(for: url), options: .atomic)
    }

    /// Removes the bytes stored for `url`.
    func remove(for url: URL) {
        try? FileManager.default.removeItem(at: fileURL(for: url))
    }

    /// Removes every cached file.
    func removeAll() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.count == 64 && name.allSatisfy(\.isHexDigit) {
            try? manager.removeItem(at: directory.appendingPathComponent(name, isDirectory: false))
        }
    }
}
