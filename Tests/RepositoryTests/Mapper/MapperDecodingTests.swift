import Foundation
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// A book as a catalogue API sends it, with a date.
struct Book: StoreObject, Equatable {
    static var primaryKey: KeyPath<Book, Int> { \.id }
    var id: Int
    var title: String
    var shelf: String
    var updatedAt: Date
}

func makeBookStore(_ books: [Book] = []) throws -> Store {
    let store = Store()
    try store.register(Book.self)
    if !books.isEmpty { try store.write { try $0.add(books) } }
    return store
}

func storedBookIDs(_ store: Store) -> [Int] {
    store.objects(Book.self).sorted(byKeyPath: "id").toArray().map(\.id)
}

func book(_ id: Int, shelf: String = "a") -> Book {
    Book(id: id, title: "Book \(id)", shelf: shelf, updatedAt: Date(timeIntervalSince1970: 0))
}

/// `[{"id": …, "title": …, "shelf": …, "updated_at": <date>}, …]`.
func booksJSON(_ ids: [Int], shelf: String = "a", date: String = "0") -> Data {
    Data(("[" + ids.map { #"{"id": \#($0), "title": "Book \#($0)", "shelf": "\#(shelf)", "updated_at": \#(date)}"# }.joined(separator: ",") + "]").utf8)
}

@Suite(.resourceCheck) struct MapperDecodingTests {
    @Test func theISO8601ExampleDecodesWithAnISO8601Decoder() throws {
        let store = try makeBookStore()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let mapper = Mapper<[Book], Book, Book>(store: store, decoder: decoder, viewModel: { $0 })
        let books = try mapper.map(booksJSON([1], date: #""2024-05-01T10:00:00Z""#))
        #expect(books.first?.updatedAt == Date(timeIntervalSince1970: 1_714_557_600))
    }

    @Test func theDefaultDecoderRejectsISO8601WithAPath() throws {
        let store = try makeBookStore()
        let mapper = Mapper<[Book], Book, Book>(store: store, viewModel: { $0 })
        do {
            _ = try mapper.map(booksJSON([1], date: #""2024-05-01T10:00:00Z""#))
            Issue.record("expected an error")
        } catch let MapperError.couldNotParse(path, _) {
            #expect(path == "$[0].updated_at")
        }
    }

    @Test func epochSecondsMillisecondsAndCustomDates() throws {
        func decoded(_ strategy: JSONDecoder.DateDecodingStrategy, _ date: String) throws -> Date? {
            let decoder = Mapper<[Book], Book, Book>.defaultDecoder()
            decoder.dateDecodingStrategy = strategy
            let mapper = Mapper<[Book], Book, Book>(store: try makeBookStore(), decoder: decoder, viewModel: { $0 })
            return try mapper.map(booksJSON([1], date: date)).first?.updatedAt
        }
        let expected = Date(timeIntervalSince1970: 1_714_557_600)
        #expect(try decoded(.secondsSince1970, "1714557600") == expected)
        #expect(try decoded(.millisecondsSince1970, "1714557600000") == expected)
        let custom = JSONDecoder.DateDecodingStrategy.custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard text == "May Day 2024, 10:00" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown date"))
            }
            return expected
        }
        #expect(try decoded(custom, #""May Day 2024, 10:00""#) == expected)
    }

    @Test func aPageNeverDeletesRowsOfOtherPages() throws {
        let store = try makeBookStore((1...40).map { book($0) })
        let mapper = Mapper<[Book], Book, Book>(store: store, covers: .page, viewModel: { $0 })
        _ = try mapper.map(booksJSON(Array(1...20)))
        #expect(storedBookIDs(store) == Array(1...40))
    }

    @Test func aFullRefreshSaysSoAndDeletesWhatIsGone() throws {
        let store = try makeBookStore((1...40).map { book($0) })
        let mapper = Mapper<[Book], Book, Book>(store: store, covers: .page, viewModel: { $0 })
        _ = try mapper.map(booksJSON(Array(1...30)), covering: .everything)
        #expect(storedBookIDs(store) == Array(1...30))
    }

    @Test func aScopedResponseDeletesOnlyInsideItsScope() throws {
        let store = try makeBookStore([book(1, shelf: "a"), book(2, shelf: "a"), book(3, shelf: "b")])
        let mapper = Mapper<[Book], Book, Book>(store: store, covers: .rows { $0.shelf == "a" }, viewModel: { $0 })
        _ = try mapper.map(booksJSON([2], shelf: "a"))
        #expect(storedBookIDs(store) == [2, 3])
    }

    @Test func deletesMissingStillNamesTheTwoWholeCoverages() throws {
        let store = try makeBookStore()
        #expect(Mapper<[Book], Book, Book>(store: store, viewModel: { $0 }).deletesMissing)
        #expect(!Mapper<[Book], Book, Book>(store: store, deletesMissing: false, viewModel: { $0 }).deletesMissing)
        #expect(!Mapper<[Book], Book, Book>(store: store, covers: .page, viewModel: { $0 }).deletesMissing)
    }

    @Test func pagesServedByARealServerAccumulate() throws {
        let server = try TestHTTPServer(routes: [
            "/books?page=1": .respond(status: 200, body: booksJSON(Array(1...20))),
            "/books?page=2": .respond(status: 200, body: booksJSON(Array(21...40))),
        ])
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let store = try makeBookStore()
        let mapper = Mapper<[Book], Book, Book>(store: store, covers: .page, viewModel: { $0 })
        for path in ["/books?page=1", "/books?page=2", "/books?page=1"] {
            let recorder = EventRecorder<Data>()
            let subscription = network.fetch(url: server.url(path)).asObservable().subscribe(recorder)
            #expect(recorder.waitForTermination(timeout: 60))
            subscription.dispose()
            _ = try mapper.map(try #require(recorder.elements.first))
        }
        #expect(storedBookIDs(store) == Array(1...40))
        #expect(server.requestCount("/books?page=1") == 2)
    }
}
