import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Version 0 of the models (as an older build of an app had them).
enum V0 {
    struct Person: StoreObject, Equatable {
        static var primaryKey: KeyPath<Person, Int> { \.id }
        var id: Int
        var name: String
        var birthYear: Int
        var nickname: String
    }
    struct Dog: StoreObject, Equatable {
        static var primaryKey: KeyPath<Dog, String> { \.name }
        var name: String
        var owner: Int
    }
}

/// Version 1: `name` renamed `fullName`, `birthYear` became `age`, `nickname` removed,
/// `email` and `score` added; `Dog` is gone.
enum V1 {
    struct Person: StoreObject, Equatable {
        static var primaryKey: KeyPath<Person, Int> { \.id }
        var id: Int
        var fullName: String
        var age: Int
        var email: String
        var score: Double?
    }
}

@Suite(.resourceCheck) struct MigrationTests {
    typealias S = FileStoreSupport

    static let people = [
        V0.Person(id: 1, name: "Ada Lovelace", birthYear: 1815, nickname: "Enchantress"),
        V0.Person(id: 2, name: "Alan Turing", birthYear: 1912, nickname: "Prof"),
    ]

    /// A file written by "version 0" of the app.
    static func makeV0File() throws -> URL {
        let url = S.temporaryFile()
        let store = try Store(configuration: .file(url: url, objectTypes: [V0.Person.self, V0.Dog.self]))
        try store.write { tx in
            try tx.add(people)
            try tx.add(V0.Dog(name: "Rex", owner: 2))
        }
        return url
    }

    static func openV1(_ url: URL, version: UInt64 = 1, deleteIfNeeded: Bool = false,
                       migration: ((Migration, UInt64) throws -> Void)? = nil) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: [V1.Person.self], schemaVersion: version,
                                       migration: migration, deleteIfMigrationNeeded: deleteIfNeeded))
    }

    @Test func renameTransformAddAndRemoveFields() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        var calls: [UInt64] = []
        do {
            let store = try Self.openV1(url) { migration, oldVersion in
                calls.append(oldVersion)
                migration.renameProperty(onType: "Person", from: "name", to: "fullName")
                migration.enumerateObjects(ofType: "Person") { old, new in
                    // The old object still has its old fields; the new one has the new ones.
                    #expect(old?.fieldNames == ["id", "name", "birthYear", "nickname"])
                    #expect(new?.fieldNames == ["id", "fullName", "age", "email", "score"])
                    new?["age"] = 2000 - (old?["birthYear"] as? Int ?? 2000)
                    if (old?["nickname"] as? String) == "Prof" { new?["score"] = 9.5 }
                }
            }
            #expect(calls == [0])
            #expect(store.objects(V1.Person.self).sorted(byKeyPath: "id").toArray() == [
                V1.Person(id: 1, fullName: "Ada Lovelace", age: 185, email: "", score: nil),
                V1.Person(id: 2, fullName: "Alan Turing", age: 88, email: "", score: 9.5),
            ])
            try store.write { try $0.add(V1.Person(id: 3, fullName: "Grace Hopper", age: 94, email: "grace@navy.mil", score: nil)) }
        }
        // Reopening the migrated file at the same version runs no migration.
        let store = try Self.openV1(url) { _, oldVersion in calls.append(oldVersion) }
        #expect(calls == [0])
        #expect(store.objects(V1.Person.self).count == 3)
        #expect(store.version == 2)
    }

    @Test func aMigrationMayOpenOtherStores() throws {
        let url = try Self.makeV0File()
        let other = S.temporaryFile("other.store")
        defer { S.cleanUp(url); S.cleanUp(other) }
        let store = try Self.openV1(url) { migration, _ in
            // e.g. moving some data to another store while migrating
            let archive = try Store(configuration: .file(url: other, objectTypes: [Memo.self]))
            let scratch = Store()
            try scratch.write { try $0.add(Memo(id: 1, topic: "scratch", text: "")) }
            migration.enumerateObjects(ofType: "Dog") { old, _ in
                try? archive.write { try $0.add(Memo(id: 1, topic: "dog", text: old?["name"] as? String ?? "")) }
            }
            #expect(throws: StoreError.fileLocked(path: url.standardizedFileURL.path)) {
                try Store(configuration: .file(url: url))   // the file being migrated
            }
        }
        #expect(store.objects(V1.Person.self).count == 2)
        #expect(try Store(configuration: .file(url: other)).object(ofType: Memo.self, forPrimaryKey: 1)?.text == "Rex")
    }

    @Test func deleteAType() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        do {
            _ = try Self.openV1(url) { migration, _ in
                #expect(migration.deleteData(forType: "Dog"))
                #expect(!migration.deleteData(forType: "Cat"))
                migration.renameProperty(onType: "Person", from: "name", to: "fullName")
            }
        }
        // The Dog table is gone from the file: the old model finds nothing.
        let store = try Store(configuration: .file(url: url, objectTypes: [V1.Person.self], schemaVersion: 1))
        #expect(store.objects(V0.Dog.self).isEmpty)
        #expect(store.objects(V1.Person.self).count == 2)
    }

    @Test func typesTheCodeNoLongerListsAreKeptAsStored() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        do {
            _ = try Self.openV1(url) { migration, _ in
                migration.enumerateObjects(ofType: "Dog") { old, new in
                    #expect(old?["owner"] as? Int == 2)
                    new?["owner"] = 1
                }
            }
        }
        let store = try Store(configuration: .file(url: url, schemaVersion: 1))
        #expect(store.objects(V0.Dog.self).toArray() == [V0.Dog(name: "Rex", owner: 1)])
    }

    @Test func createAndDeleteObjects() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        let store = try Self.openV1(url) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { old, new in
                if old?["id"] as? Int == 1, let new { migration.delete(new) }
            }
            migration.create("Person", value: ["id": 7, "fullName": "Created", "age": 1])
        }
        #expect(store.objects(V1.Person.self).sorted(byKeyPath: "id").map(\.id) == [2, 7])
        #expect(store.object(ofType: V1.Person.self, forPrimaryKey: 7)?.fullName == "Created")
    }

    @Test func aNewerFileIsRefusedAndLeftAlone() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        _ = try Self.openV1(url, version: 3)
        let migrated = S.bytes(url)
        #expect(throws: StoreError.schemaVersionTooNew(stored: 3, code: 1)) { try Self.openV1(url, version: 1) }
        #expect(S.bytes(url) == migrated)
    }

    @Test func aChangedModelWithoutANewVersionNeedsAMigration() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        #expect {
            try Self.openV1(url, version: 0)
        } throws: { error in
            guard case StoreError.migrationRequired(let type, _) = error else { return false }
            return type == "Person"
        }
        #expect(S.bytes(url) == original)
        // The unmigrated file still opens with the old models.
        let store = try Store(configuration: .file(url: url, objectTypes: [V0.Person.self, V0.Dog.self]))
        #expect(store.objects(V0.Person.self).toArray() == Self.people)
    }

    @Test func deleteIfMigrationNeededStartsOver() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.openV1(url, version: 0, deleteIfNeeded: true)
            #expect(store.objects(V1.Person.self).isEmpty)
            #expect(store.objects(V0.Dog.self).isEmpty)
            try store.write { try $0.add(V1.Person(id: 1, fullName: "New", age: 1, email: "", score: nil)) }
        }
        #expect(try Self.openV1(url, version: 0).objects(V1.Person.self).count == 1)
    }

    @Test func aFailedMigrationLeavesTheFileAsItWas() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        #expect(throws: TestError.boom) {
            try Self.openV1(url) { _, _ in throw TestError.boom }
        }
        #expect(S.bytes(url) == original)
        // Two objects with one primary key: the migration fails, the file stays.
        #expect {
            try Self.openV1(url) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { _, new in new?["id"] = 5 }
            }
        } throws: { error in
            guard case StoreError.migrationFailed(let reason) = error else { return false }
            return reason.contains("primary key 5")
        }
        // Writing an old object or an unknown field is a mistake the migration reports.
        #expect(throws: StoreError.migrationFailed(reason: "Person has no field nickname")) {
            try Self.openV1(url) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { _, new in new?["nickname"] = "x" }
            }
        }
        // A value of the wrong kind for the new model.
        #expect(throws: StoreError.migrationFailed(reason: "Person.age holds a string, not int (Person 1)")) {
            try Self.openV1(url) { migration, _ in
                migration.enumerateObjects(ofType: "Person") { _, new in new?["age"] = "old" }
            }
        }
        #expect(S.bytes(url) == original)
        let store = try Store(configuration: .file(url: url, objectTypes: [V0.Person.self, V0.Dog.self]))
        #expect(store.objects(V0.Person.self).count == 2)
    }

    @Test func migratingWithoutAClosureMapsFieldsByName() throws {
        let url = try Self.makeV0File()
        defer { S.cleanUp(url) }
        let store = try Self.openV1(url)
        // `fullName` and `age` are new (defaults), `name` and the others are dropped.
        #expect(store.objects(V1.Person.self).sorted(byKeyPath: "id").map(\.fullName) == ["", ""])
        #expect(store.objects(V1.Person.self).map(\.age) == [0, 0])
    }
}
