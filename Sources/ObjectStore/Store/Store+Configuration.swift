import Foundation

extension Store {
    /// Where a store keeps its data, and how a file store opens.
    public struct Configuration: @unchecked Sendable, Equatable {
        enum Storage: Equatable {
            case inMemory(String)
            case file(String)
        }
        let storage: Storage
        /// Model types registered (and their schemas checked) when the store opens. For a file
        /// store these are also the models a migration moves the stored data to.
        public var objectTypes: [any StoreObject.Type]
        /// The version of the models (file stores); raise it when a model changes.
        public var schemaVersion: UInt64 = 0
        /// Moves data written with an older ``schemaVersion`` to the current models.
        public var migration: ((Migration, _ oldSchemaVersion: UInt64) throws -> Void)?
        /// Delete the stored data instead of migrating it when a migration is needed.
        public var deleteIfMigrationNeeded = false
        /// Asked at open with the file's size and the size its live data needs; `true`
        /// compacts the file before the store is used.
        public var shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// When a committed write has reached the disk.
        public var durability: Durability = .full
        /// When the store compacts its file while running.
        public var autoCompaction: AutoCompaction = .default
        /// Open the file without ever changing it (Realm's `readOnly`): for a file another
        /// process writes later, or one an app ships in its bundle. Writes and compactions throw
        /// ``StoreError/readOnly(path:)``; a missing file is an error rather than created; a
        /// model that differs from the stored one is ``StoreError/migrationRequired(type:reason:)``;
        /// an unfinished commit at the end is ignored, not truncated (see ``onRecovery``). Read-only
        /// opens of a file share it (`flock` shared); a writer, here or in another process, has it
        /// alone, so the two exclude each other with ``StoreError/fileLocked(path:)``.
        public var readOnly = false
        /// Told when opening the file dropped an unfinished commit from its end (the last run
        /// was killed while appending it), so the app can log it; also in
        /// ``Store/recoveryReport``. Called on the opening thread before `Store(configuration:)`
        /// returns, once per `Store` made with this configuration: a second `Store` on a file
        /// that is already open in the process is told of the same drop.
        public var onRecovery: (@Sendable (RecoveryReport) -> Void)?
        /// Told, once, when damage is first found in the file after the open: a page whose
        /// checksum or rows do not hold up when first read. From then on the damaged page's
        /// objects read as missing, writes, `compact()` and `writeCopy(toFile:)` throw the
        /// error, and observations end with it; the app can log it, tell the user, and restore a
        /// backup. Called on a global queue (the reading thread holds the store's lock when it
        /// finds the damage), for every `Store` alive on the file; a `Store` made after the damage
        /// was found is told at once. Also in ``Store/damage``. See
        /// `Guides/ObjectStore-FileFormat.md`, "What is checked when".
        public var onDamage: (@Sendable (StoreError) -> Void)?
        /// The page cache's budget in bytes (`PagedFile.defaultCacheBudget` unless a test sets
        /// a small one to see pages dropped and read again).
        var pageCacheBudget = PagedFile.defaultCacheBudget
        /// Where a file store's write paths make their file operations (``POSIXFileSystem``
        /// unless a test gives a simulated disk that fails them or loses power).
        var fileSystem: any FileSystem = POSIXFileSystem()

        /// The file of a file store; `nil` for an in-memory store.
        public var fileURL: URL? {
            if case .file(let path) = storage { return URL(fileURLWithPath: path) }
            return nil
        }

        /// The identifier of an in-memory store; `nil` for a file store.
        public var inMemoryIdentifier: String? {
            if case .inMemory(let identifier) = storage { return identifier }
            return nil
        }

        /// An in-memory store. Stores opened with the same identifier share their data while
        /// at least one of them is alive, as Realm's in-memory realms do.
        ///
        /// - Parameters:
        ///   - identifier: Names the shared in-memory data.
        ///   - objectTypes: Models whose schemas are checked when the store opens.
        /// - Returns: The configuration.
        public static func inMemory(identifier: String, objectTypes: [any StoreObject.Type] = []) -> Configuration {
            Configuration(storage: .inMemory(identifier), objectTypes: objectTypes)
        }

        /// A store kept in a file: every committed write is appended to it, and reopening the
        /// file (after a restart or a crash) restores exactly the committed writes.
        ///
        /// Stores opened on the same file in one process share one instance. The file is
        /// locked (`flock`) while open: another process opening it gets
        /// ``StoreError/fileLocked(path:)``. See `Guides/ObjectStore-FileFormat.md`.
        ///
        /// **App-group containers.** The lock is held for as long as the file is open, also while
        /// the app is suspended, and iOS terminates an app that is suspended while holding a
        /// file lock on a file in a shared app-group container (the crash report's termination
        /// code is `0xdead10cc`; the same is reported on tvOS). Keep the store in the app's own
        /// container (Application Support, Caches), or close it before the app is suspended:
        /// the file is closed, and unlocked, when the last `Store` and `Results` of it are gone,
        /// so let go of them, and dispose of their observations, when the app moves to the
        /// background (finishing a write first, under `beginBackgroundTask` if it may take a
        /// while), and open the store again on return.
        ///
        ///     let url = FileManager.default.temporaryDirectory.appendingPathComponent("pizzas.store")
        ///     let store = try Store(configuration: .file(url: url, objectTypes: [Pizza.self]))
        ///
        /// - Parameters:
        ///   - url: The file; created (with owner-only permissions, 0600) when missing.
        ///   - objectTypes: Models checked against the stored data when the store opens (list
        ///     every model so a changed one is caught at open rather than at first use).
        ///   - schemaVersion: The version of the models; raise it when a model changes.
        ///   - migration: Moves data from an older schema version (see ``Migration``).
        ///   - deleteIfMigrationNeeded: Discard the stored data instead of migrating it.
        ///   - shouldCompactOnLaunch: Given the file's size and the size of its live data,
        ///     whether to compact it at open.
        ///   - durability: `.full` (default): a `write` that returned is on disk. `.relaxed`:
        ///     no sync per commit (a killed process loses nothing, a power cut may lose the
        ///     latest commits, never part of one).
        ///   - autoCompaction: When the running store compacts its file.
        /// - Returns: The configuration.
        public static func file(
            url: URL,
            objectTypes: [any StoreObject.Type] = [],
            schemaVersion: UInt64 = 0,
            migration: ((Migration, _ oldSchemaVersion: UInt64) throws -> Void)? = nil,
            deleteIfMigrationNeeded: Bool = false,
            shouldCompactOnLaunch: ((_ totalBytes: Int, _ usedBytes: Int) -> Bool)? = nil,
            durability: Durability = .full,
            autoCompaction: AutoCompaction = .default
        ) -> Configuration {
            var configuration = Configuration(storage: .file(url.standardizedFileURL.path), objectTypes: objectTypes)
            configuration.schemaVersion = schemaVersion
            configuration.migration = migration
            configuration.deleteIfMigrationNeeded = deleteIfMigrationNeeded
            configuration.shouldCompactOnLaunch = shouldCompactOnLaunch
            configuration.durability = durability
            configuration.autoCompaction = autoCompaction
            return configuration
        }

        /// Two configurations are equal when they name the same data.
        public static func == (lhs: Configuration, rhs: Configuration) -> Bool { lhs.storage == rhs.storage }
    }

    /// When a committed write counts as stored.
    public enum Durability: Sendable, Equatable {
        /// Each commit is synced to the disk (`fdatasync`, `F_FULLFSYNC` on Apple platforms)
        /// before `write` returns.
        case full
        /// Commits are written but not synced one by one (for bulk imports): a killed process
        /// loses nothing, a power cut may lose the latest commits (never part of one).
        case relaxed
    }

    /// When a running file store rewrites its file as a compact snapshot.
    public struct AutoCompaction: Sendable, Equatable {
        /// Compact when the file is larger than this multiple of its size after the last
        /// compaction (0 never compacts automatically).
        public var logMultiple: Int
        /// …and larger than this many bytes.
        public var minimumBytes: Int
        /// Also compact when the changes kept in memory since the last compaction (replaced
        /// rows, and rows added since) pass about this many bytes, so a long-running writer's
        /// memory stays bounded; after a compaction the store reads every row from the new file.
        public var heldBytes: Int

        /// Creates a policy.
        ///
        /// - Parameters:
        ///   - logMultiple: The growth factor that triggers a compaction (0: never).
        ///   - minimumBytes: The file size below which the store never compacts for its size.
        ///   - heldBytes: The memory held by changes since the last compaction that triggers
        ///     one (default 4 MiB).
        public init(logMultiple: Int, minimumBytes: Int, heldBytes: Int = 4 << 20) {
            self.logMultiple = logMultiple
            self.minimumBytes = minimumBytes
            self.heldBytes = heldBytes
        }

        /// Compact past 2× the compacted size and 1 MiB, or past 4 MiB of changes held in
        /// memory: the file stays within about twice its live data.
        public static let `default` = AutoCompaction(logMultiple: 2, minimumBytes: 1 << 20)
        /// Never compact automatically (``Store/compact()`` still works).
        public static let never = AutoCompaction(logMultiple: 0, minimumBytes: .max, heldBytes: .max)
    }
}
