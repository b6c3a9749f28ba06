import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Store {
    /// Writes a compact copy of the store's latest commit to a new file, while the store stays
    /// in use (Realm's `writeCopy(toFile:)`): other threads may read and write meanwhile; the
    /// copy holds exactly one commit, whole. The copy is written to a temporary file, synced,
    /// and linked into place, so it is complete or absent; then its directory is synced, so
    /// that the link survives a power cut (if that fails, the copy is removed again and the
    /// error thrown). Open it with
    /// ``Configuration/file(url:objectTypes:schemaVersion:migration:deleteIfMigrationNeeded:shouldCompactOnLaunch:durability:autoCompaction:)``.
    ///
    ///     try store.writeCopy(toFile: backupURL)
    ///
    /// - Parameter fileURL: Where the copy goes; it must not exist yet.
    /// - Throws: ``StoreError/io(path:reason:)`` (also when the file exists, or when its
    ///   directory cannot be synced), or a damage found
    ///   in this store's file while its pages were read for the copy.
    public func writeCopy(toFile fileURL: URL) throws {
        let snapshot = core.snapshot()
        if let damage = core.file?.damage.error { throw damage }
        try StoreFile.writeCopy(snapshot.tables, version: snapshot.version,
                                schemaVersion: core.file?.schemaVersion ?? configuration.schemaVersion,
                                to: fileURL.standardizedFileURL.path,
                                in: core.file?.fileSystem ?? configuration.fileSystem)
        // A page found damaged while the copy read it: the copy would lack its rows.
        if let damage = core.file?.damage.error {
            (core.file?.fileSystem ?? configuration.fileSystem).unlink(fileURL.standardizedFileURL.path)
            throw damage
        }
    }
}
