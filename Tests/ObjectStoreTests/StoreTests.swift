import Foundation
import Testing
import TestSupport
@testable import ObjectStore

struct Unstorable: StoreObject {
    static var primaryKey: KeyPath<Unstorable, Int> { \.id }
    var id: Int
    var matrix: [[Int]]
    init(from decoder: Decoder) throws {
        var unkeyed = try decoder.unkeyedContainer()
        id = try unkeyed.decode(Int.self)
        matrix = []
    }
    func encode(to encoder: Encoder) throws {}
}

struct BadKey: StoreObject {
    static var primaryKey: KeyPath<BadKey, Double> { \.id }
    var id: Double
}

extension Double: StorePrimaryKey {
    public var storeValue: StoreValue { .double(self) }
}

struct Tag: StoreObject, Equatable {
    static var primaryKey: KeyPath<Tag, String> { \.name }
    var name: String
    var small: Int8
    var big: UInt64
    var ratio: Float
    var amount: Decimal
    var blob: Data
    var scores: [Double]
    var maybe: String?
}

@Suite(.resourceCheck) struct StoreTests {
    @Test(arguments: StoreBackend.allCases) func addAndReadBackEveryFieldKind(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        for pizza in Fixture.pizzas {
            #expect(store.object(ofType: Pizza.self, forPrimaryKey: pizza.id) == pizza)
        }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 99) == nil)
        let tag = Tag(name: "t", small: -3, big: 42, ratio: 1.5, amount: Decimal(string: "12.34")!, blob: Data([1, 2, 3]), scores: [1, 2.5], maybe: nil)
        try store.write { try $0.add(tag) }
        #expect(store.object(ofType: Tag.self, forPrimaryKey: "t") == tag)
        #expect(store._checkInvariants())
    }

    @Test func schemaIsDerivedWithKindsAndLinks() throws {
        let schema = try ObjectSchema.of(Pizza.self)
        #expect(schema.fieldNames == ["id", "name", "price", "vegetarian", "rating", "tags", "categories", "main", "chef", "baked", "code", "weight"])
        #expect(schema.fields.map(\.kind.description) == ["int", "string", "double", "bool", "int", "list<string>", "list<link<Category>>", "link<Category>", "embedded", "date", "uuid", "int"])
        #expect(schema.fields[4].isOptional && !schema.fields[3].isOptional)
        #expect(schema.fields[1].isIndexed && schema.fields[0].isIndexed && !schema.fields[2].isIndexed)
    }

    @Test func unstorableModelsFailAtRegistration() throws {
        let store = Store()
        #expect(throws: StoreError.self) { try store.register(Unstorable.self) }
        do {
            try store.register(BadKey.self)
            Issue.record("expected an error")
        } catch let error as StoreError {
            #expect(error.description == "BadKey cannot be stored: primary key 'id' must be Int, String or UUID")
        }
        #expect(throws: StoreError.self) { try Store(configuration: .inMemory(identifier: "bad", objectTypes: [Unstorable.self])) }
    }

    @Test(arguments: StoreBackend.allCases) func linkedObjectsAreStoredWithTheirOwner(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        #expect(store.objects(Category.self).map(\.name) == ["Classic", "Veggie", "Spicy"])
        try store.write { tx in
            try tx.add(Category(id: 1, name: "Classics"), update: .modified)
        }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1)?.categories.first?.name == "Classics")
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1)?.main?.name == "Classics")
        try store.write { tx in try tx.delete(Fixture.veggie) }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1)?.categories.map(\.id) == [1])
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 3)?.main == nil)
    }

    @Test(arguments: StoreBackend.allCases) func duplicateKeyThrowsAndRollsBackEverything(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let version = store.version
        #expect(throws: StoreError.duplicatePrimaryKey(type: "Pizza", key: "5")) {
            try store.write { tx in
                try tx.delete(Fixture.pizzas[1])
                var p = Fixture.pizzas[4]
                p.id = 100
                try tx.add(p)
                try tx.add(Fixture.pizzas[4])
            }
        }
        // As in Realm, `.error` also applies to the linked objects an added object carries.
        #expect(throws: StoreError.duplicatePrimaryKey(type: "Category", key: "1")) {
            try store.write { tx in
                var p = Fixture.pizzas[0]
                p.id = 101
                try tx.add(p)
            }
        }
        #expect(store.version == version)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 100) == nil)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 2) != nil)
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func throwingBlockCommitsNothing(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        #expect(throws: TestError.boom) {
            try store.write { tx in
                try tx.deleteAll(Pizza.self)
                #expect(tx.objects(Pizza.self).isEmpty)
                #expect(store.objects(Pizza.self).count == 6)
                throw TestError.boom
            }
        }
        #expect(store.objects(Pizza.self).count == 6)
    }

    @Test(arguments: StoreBackend.allCases) func nestedWriteIsAnError(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        #expect(throws: StoreError.nestedWrite) {
            try store.write { _ in try store.write { _ in } }
        }
        #expect(!store.isInWriteTransaction)
        try store.write { _ in #expect(store.isInWriteTransaction) }
    }

    @Test(arguments: StoreBackend.allCases) func transactionCannotBeUsedAfterItsBlock(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let escaped = try store.write { $0 }
        #expect(throws: StoreError.transactionClosed) { try escaped.add(Fixture.classic) }
    }

    @Test(arguments: StoreBackend.allCases) func updatePolicies(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        var p = Fixture.pizzas[0]
        p.price = 750
        try store.write { try $0.add(p, update: .modified) }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1)?.price == 750)
        let log = store._lastCommitLog
        #expect(log.first == .update(table: "Pizza", key: .int(1), fields: [2], values: [.double(750)]))
        let version = store.version
        try store.write { try $0.add(p, update: .modified) }
        #expect(store.version == version, "an unchanged object writes nothing")
        try store.write { try $0.add(p, update: .all) }
        #expect(store.version == version + 1)
    }

    @Test(arguments: StoreBackend.allCases) func deletions(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        try store.write { tx in
            let expensive = try tx.delete(where: Pizza.self, "price > %@", 1000)
            let first = try tx.delete(Pizza.self, forPrimaryKey: 1)
            let again = try tx.delete(Pizza.self, forPrimaryKey: 1)
            #expect(expensive == 2 && first && !again)
        }
        #expect(store.objects(Pizza.self).map(\.id) == [2, 4, 6])
        try store.write { tx in try tx.delete(store.objects(Pizza.self).filter("id > 3")) }
        #expect(store.objects(Pizza.self).map(\.id) == [2])
        try store.write { tx in try tx.deleteAll() }
        #expect(store.objects(Pizza.self).isEmpty && store.objects(Category.self).isEmpty)
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func aBadQueryInDeleteWhereRollsBackTheTransaction(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        #expect(throws: QueryError(.syntax, expected: "a value after '<'", found: "end of query", column: 8)) {
            try store.write { tx in
                try tx.deleteAll(Category.self)
                try tx.delete(where: Pizza.self, "price <")
            }
        }
        #expect(store.objects(Category.self).count == 3)
    }

    @Test func inMemoryStoresShareDataByIdentifier() throws {
        let a = try Store(configuration: .inMemory(identifier: "shared-test"))
        let b = try Store(configuration: .inMemory(identifier: "shared-test"))
        try a.write { try $0.add(Fixture.classic) }
        #expect(b.object(ofType: Category.self, forPrimaryKey: 1) == Fixture.classic)
        #expect(Store().objects(Category.self).isEmpty)
    }

    @Test(arguments: StoreBackend.allCases) func commitProducesALogOfChanges(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in
            try tx.add(Fixture.classic)
            try tx.delete(Fixture.classic)
        }
        let log = store._lastCommitLog
        #expect(log == [.insert(table: "Category", row: [.int(1), .string("Classic")]), .delete(table: "Category", key: .int(1))])
        let data = try JSONEncoder().encode(log)
        #expect(try JSONDecoder().decode([ChangeRecord].self, from: data) == log)
    }

    @Test(arguments: StoreBackend.allCases) func concurrentWritersAreSerialisedAndReadersSeeWholeCommits(_ backend: StoreBackend) async throws {
        let store = try backend.makeStore()
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for i in 0..<50 {
                        try? store.write { tx in
                            try tx.add(Category(id: writer * 1000 + i, name: "a"))
                            try tx.add(Category(id: writer * 1000 + i + 500, name: "b"))
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    let all = store.objects(Category.self)
                    let snapshot = Array(all)
                    #expect(snapshot.count % 2 == 0, "a reader saw half a transaction")
                }
            }
        }
        #expect(store.objects(Category.self).count == 400)
        #expect(store._checkInvariants())
    }
}

enum Size: String, Codable, CaseIterable { case small, large }
enum Level: Int, Codable { case low, high }

struct Drink: StoreObject, Equatable {
    static var primaryKey: KeyPath<Drink, String> { \.code }
    var code: String
    var size: Size
    var level: Level
}

@Suite(.resourceCheck) struct EnumFieldTests {
    @Test(arguments: StoreBackend.allCases)
    func rawValueEnumsAreStoredAndQueried(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.register(Drink.self)
        try store.write { tx in
            try tx.add([Drink(code: "a", size: .small, level: .high), Drink(code: "b", size: .large, level: .low)])
        }
        #expect(store.object(ofType: Drink.self, forPrimaryKey: "b") == Drink(code: "b", size: .large, level: .low))
        #expect(store.objects(Drink.self).filter("size == %@", Size.large).map(\.code) == ["b"])
        #expect(store.objects(Drink.self).filter("level == 1").map(\.code) == ["a"])
    }
}

struct LinksToUnstorable: StoreObject {
    static var primaryKey: KeyPath<LinksToUnstorable, Int> { \.id }
    var id: Int
    var bad: [BadKey]
}

@Suite(.resourceCheck) struct LinkedSchemaTests {
    @Test func aModelLinkingToAnUnstorableOneFailsAtRegistration() throws {
        do {
            try Store().register(LinksToUnstorable.self)
            Issue.record("expected an error")
        } catch let error as StoreError {
            #expect(error.description.hasPrefix("LinksToUnstorable cannot be stored: it links to BadKey"))
        }
        #expect(try Store().register(Pizza.self).name == "Pizza")
    }

    @Test(arguments: StoreBackend.allCases) func modelsMayLinkInCycles(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.register(Author.self)
        let author = Author(id: 1, name: "Ann", books: [Book(id: 7, title: "Swift", author: nil)])
        try store.write { try $0.add(author) }
        try store.write { try $0.add(Book(id: 7, title: "Swift", author: author), update: .modified) }
        #expect(store.object(ofType: Book.self, forPrimaryKey: 7)?.author?.books.first?.title == "Swift")
        #expect(store.objects(Book.self).filter("author.name == 'Ann'").count == 1)
        #expect(store.objects(Author.self).filter("ANY books.author.name == 'Ann'").count == 1)
    }
}

struct Author: StoreObject {
    static var primaryKey: KeyPath<Author, Int> { \.id }
    var id: Int
    var name: String
    var books: [Book]
}

struct Book: StoreObject {
    static var primaryKey: KeyPath<Book, Int> { \.id }
    var id: Int
    var title: String
    var author: Author?
}

final class Note: StoreObject {
    static var primaryKey: KeyPath<Note, UUID> { \.id }
    let id: UUID
    var text: String
    var created: Date
    init(id: UUID, text: String, created: Date) {
        self.id = id
        self.text = text
        self.created = created
    }
}

@Suite(.resourceCheck) struct ClassModelTests {
    @Test(arguments: StoreBackend.allCases) func finalClassesWithUUIDKeysAreStored(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let id = Fixture.uuid(9)
        try store.write { tx in try tx.add(Note(id: id, text: "hello", created: Fixture.base)) }
        let note = try #require(store.object(ofType: Note.self, forPrimaryKey: id))
        #expect(note.text == "hello" && note.created == Fixture.base)
        #expect(store.objects(Note.self).filter("id == %@", id).count == 1)
        #expect(store.objects(Note.self).filter("created == %@", Fixture.base).count == 1)
    }
}
