import Foundation
import ObjectStore
import Streams

/// Turns a response body into view models: decodes it, stores the models in **one** write
/// transaction, and returns the view models.
///
///     let mapper = Mapper<[Pizza], Pizza, PizzaViewModel>(store: store, viewModel: PizzaViewModel.init)
///     network.fetch(url: pizzasURL).asObservable()
///         .flatMap { mapper.fromJSON($0, on: background).asObservable() }
///
/// The body is read with the `JSONDecoder` given at creation; the default one decodes keys from
/// `snake_case` (`price_was` → `priceWas`) and dates with `JSONDecoder`'s default strategy.
/// Pass your own for ISO-8601 or epoch dates, or other key styles:
///
///     let decoder = JSONDecoder()
///     decoder.keyDecodingStrategy = .convertFromSnakeCase
///     decoder.dateDecodingStrategy = .iso8601          // "2024-05-01T10:00:00Z"
///     let mapper = Mapper<[Book], Book, Book>(store: store, decoder: decoder, viewModel: { $0 })
///
/// Models are upserted with `.modified`. What else happens depends on what the response
/// covers (``ResponseCoverage``): with ``ResponseCoverage/everything`` (the default, for
/// whole-list endpoints where the server is the full truth) stored objects of the model type
/// that the response no longer contains are deleted in the same transaction; with
/// ``ResponseCoverage/page`` nothing is deleted; with ``ResponseCoverage/rows(where:)`` only
/// covered rows can be. Malformed JSON, a missing field or a wrong type fails with
/// ``MapperError/couldNotParse(path:reason:)`` and leaves the store exactly as it was.
public struct Mapper<Response: Decodable, Model: StoreObject, ViewModel>: @unchecked Sendable {
    /// The store the models are written to.
    public let store: Store
    /// What a response covers unless ``map(_:covering:)`` says otherwise.
    public let coverage: ResponseCoverage<Model>
    /// Whether stored objects missing from a response are deleted by default
    /// (``coverage`` is not ``ResponseCoverage/page``).
    public var deletesMissing: Bool { coverage.deletes }
    /// The decoder every body is read with (do not change it after creating the mapper).
    public let decoder: JSONDecoder
    private let models: (Response) throws -> [Model]
    private let viewModel: (Model) -> ViewModel
    private var merge: ((_ incoming: Model, _ stored: Model) -> Model)?

    /// Creates a mapper.
    ///
    /// - Parameters:
    ///   - store: Where models are written.
    ///   - decoder: Reads the body (``defaultDecoder()``, `snake_case` keys, by default).
    ///   - covers: What a response covers (``ResponseCoverage/everything`` by default: the
    ///     server is the full truth for a whole list; use ``ResponseCoverage/page`` for pages).
    ///   - models: Builds the models from the decoded response.
    ///   - viewModel: Builds a view model from a stored model.
    public init(
        store: Store,
        decoder: JSONDecoder = defaultDecoder(),
        covers: ResponseCoverage<Model> = .everything,
        models: @escaping (Response) throws -> [Model],
        viewModel: @escaping (Model) -> ViewModel
    ) {
        self.store = store
        self.decoder = decoder
        self.coverage = covers
        self.models = models
        self.viewModel = viewModel
    }

    /// Creates a mapper that deletes missing rows or not.
    ///
    /// - Parameters:
    ///   - store: Where models are written.
    ///   - decoder: Reads the body (``defaultDecoder()`` by default).
    ///   - deletesMissing: `true` for ``ResponseCoverage/everything``, `false` for
    ///     ``ResponseCoverage/page``.
    ///   - models: Builds the models from the decoded response.
    ///   - viewModel: Builds a view model from a stored model.
    public init(
        store: Store,
        decoder: JSONDecoder = defaultDecoder(),
        deletesMissing: Bool,
        models: @escaping (Response) throws -> [Model],
        viewModel: @escaping (Model) -> ViewModel
    ) {
        self.init(store: store, decoder: decoder, covers: deletesMissing ? .everything : .page, models: models, viewModel: viewModel)
    }

    /// The decoder used unless another is given: keys from `snake_case`, dates as
    /// `JSONDecoder`'s default (seconds since 2001-01-01).
    ///
    /// - Returns: A new decoder.
    public static func defaultDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Decodes, stores and maps `data` now, on the calling thread.
    ///
    /// - Parameters:
    ///   - data: A response body.
    ///   - coverage: What this response covers (the mapper's ``coverage`` by default): a
    ///     full refresh passes ``ResponseCoverage/everything``, a page ``ResponseCoverage/page``.
    /// - Returns: The view models, in the response's order.
    /// - Throws: ``MapperError/couldNotParse(path:reason:)`` for bad JSON (the store is
    ///   untouched), or the store's error if the write fails (rolled back).
    public func map(_ data: Data, covering coverage: ResponseCoverage<Model>? = nil) throws -> [ViewModel] {
        let models = try decode(data)
        let covers = (coverage ?? self.coverage).covers
        let merge = self.merge
        let saved = try store.write { transaction in try Self.save(models, covers: covers, merge: merge, in: transaction) }
        return saved.map(viewModel)
    }

    /// The same mapper, keeping what only the app knows: before each decoded model is upserted,
    /// `merge` gets it and the stored object with its primary key, inside the write
    /// transaction, and returns the object to store (and to build the view model from). Models
    /// with no stored object are stored as decoded.
    ///
    ///     let messages = Mapper<[Message], Message, MessageRow>(store: store, covers: .page, viewModel: MessageRow.init)
    ///         .merging { incoming, stored in
    ///             var merged = incoming
    ///             merged.isRead = stored.isRead          // the server does not know what was read here
    ///             return merged
    ///         }
    ///
    /// The merge runs in the transaction, so a local write made between the request and the
    /// answer is what it sees: nothing the app changed meanwhile is overwritten.
    ///
    /// - Parameter merge: The object to store, from the decoded one and the stored one.
    /// - Returns: A mapper that merges.
    public func merging(_ merge: @escaping (_ incoming: Model, _ stored: Model) -> Model) -> Mapper {
        var mapper = self
        mapper.merge = merge
        return mapper
    }

    /// Decodes `data` on the calling task, stores the models with `store.asyncWrite` (on the
    /// store's background writer, so the caller's thread never waits for the commit), and maps
    /// them.
    ///
    ///     let pizzas = try await mapper.asyncMap(data)
    ///
    /// - Parameters:
    ///   - data: A response body.
    ///   - coverage: What this response covers (the mapper's ``coverage`` by default).
    /// - Returns: The view models, in the response's order.
    /// - Throws: As ``map(_:covering:)``.
    public func asyncMap(_ data: Data, covering coverage: ResponseCoverage<Model>? = nil) async throws -> [ViewModel] {
        let models = try decode(data)
        let covers = (coverage ?? self.coverage).covers
        // The models go to the writer and come back when the write returns: no two threads use
        // them at once.
        let merge = self.merge
        nonisolated(unsafe) var saved: [Model] = []
        let save = UncheckedSendable { (transaction: Transaction) in
            saved = try Self.save(models, covers: covers, merge: merge, in: transaction)
        }
        try await store.asyncWrite { transaction in try save.value(transaction) }
        return saved.map(viewModel)
    }

    /// The models of a response body, or ``MapperError/couldNotParse(path:reason:)``.
    private func decode(_ data: Data) throws -> [Model] {
        let response: Response
        if let problem = Self.nestingProblem(in: data) { throw problem }
        do {
            response = try decoder.decode(Response.self, from: data)
        } catch let error as DecodingError {
            throw Self.parseError(error)
        }
        return try models(response)
    }

    /// Upserts `models` (each merged with its stored object first, when there is a merge) and
    /// deletes the stored ones that `covers` accepts and `models` do not contain (nothing when
    /// `covers` is `nil`).
    ///
    /// - Returns: The models as stored.
    private static func save(_ models: [Model], covers: ((Model) -> Bool)?, merge: ((Model, Model) -> Model)?, in transaction: Transaction) throws -> [Model] {
        if let covers {
            let kept = Set(models.map { $0[keyPath: Model.primaryKey] })
            let stale = transaction.objects(Model.self).filter { covers($0) && !kept.contains($0[keyPath: Model.primaryKey]) }
            try transaction.delete(stale)
        }
        var stored = models
        if let merge {
            stored = models.map { incoming in
                transaction.object(ofType: Model.self, forPrimaryKey: incoming[keyPath: Model.primaryKey]).map { merge(incoming, $0) } ?? incoming
            }
        }
        try transaction.add(stored, update: .modified)
        return stored
    }

    /// The mapping as a `Single` that runs on `scheduler` (keep it off the main scheduler).
    ///
    ///     fromJSON(data, on: s): --[vm]|     or  --x  (MapperError)
    ///
    /// - Parameters:
    ///   - data: A response body.
    ///   - scheduler: Where decoding and the write run.
    ///   - coverage: What this response covers (the mapper's ``coverage`` by default).
    /// - Returns: A single of the view models.
    public func fromJSON(_ data: Data, on scheduler: ImmediateSchedulerType, covering coverage: ResponseCoverage<Model>? = nil) -> Single<[ViewModel]> {
        Single.deferred { .just(try self.map(data, covering: coverage)) }.subscribe(on: scheduler)
    }

    /// How deeply arrays and objects may nest in a body: 512 levels, Foundation's own limit,
    /// checked before decoding by one pass over the bytes, so that a body no app needs never
    /// reaches the decoder (Foundation on Linux traps on nesting that reaches 513 levels exactly
    /// at a body's last byte, instead of throwing).
    public static var maximumNestingDepth: Int { 512 }

    /// The error for a body nested deeper than ``maximumNestingDepth``, if it is.
    static func nestingProblem(in data: Data) -> MapperError? {
        guard JSONNesting.exceeds(maximumNestingDepth, in: data) else { return nil }
        return .couldNotParse(path: "$", reason: "JSON nested deeper than \(maximumNestingDepth) levels")
    }

    static func parseError(_ error: DecodingError) -> MapperError {
        switch error {
        case .keyNotFound(let key, let context):
            return .couldNotParse(path: path(context.codingPath + [key]), reason: "missing field")
        case .typeMismatch(let type, let context):
            return .couldNotParse(path: path(context.codingPath), reason: "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return .couldNotParse(path: path(context.codingPath), reason: "expected \(type), found null")
        case .dataCorrupted(let context):
            return .couldNotParse(path: path(context.codingPath), reason: "malformed JSON: \(context.debugDescription)")
        @unknown default:
            return .couldNotParse(path: "$", reason: "\(error)")
        }
    }

    /// `$`, then `[index]` or `.json_key` per component (keys back in `snake_case`).
    static func path(_ codingPath: [CodingKey]) -> String {
        var result = "$"
        for key in codingPath {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += "." + snakeCase(key.stringValue)
            }
        }
        return result
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result.append("_") }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

extension Mapper where Response == [Model] {
    /// A mapper for endpoints answering a JSON array of the models themselves.
    ///
    /// - Parameters:
    ///   - store: Where models are written.
    ///   - decoder: Reads the body (``defaultDecoder()`` by default).
    ///   - covers: What a response covers (``ResponseCoverage/everything`` by default).
    ///   - viewModel: Builds a view model from a stored model.
    public init(store: Store, decoder: JSONDecoder = defaultDecoder(), covers: ResponseCoverage<Model> = .everything, viewModel: @escaping (Model) -> ViewModel) {
        self.init(store: store, decoder: decoder, covers: covers, models: { $0 }, viewModel: viewModel)
    }

    /// A mapper for endpoints answering a JSON array of the models themselves, deleting
    /// missing rows or not.
    ///
    /// - Parameters:
    ///   - store: Where models are written.
    ///   - decoder: Reads the body (``defaultDecoder()`` by default).
    ///   - deletesMissing: `true` for ``ResponseCoverage/everything``, `false` for
    ///     ``ResponseCoverage/page``.
    ///   - viewModel: Builds a view model from a stored model.
    public init(store: Store, decoder: JSONDecoder = defaultDecoder(), deletesMissing: Bool, viewModel: @escaping (Model) -> ViewModel) {
        self.init(store: store, decoder: decoder, covers: deletesMissing ? .everything : .page, models: { $0 }, viewModel: viewModel)
    }
}
