import Foundation
import ObjectStore
import Streams

/// Why a ``Mapper`` could not turn a response into models.
public enum MapperError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON is malformed, misses a field or has a wrong type. `path` names the place in
    /// JSONPath style with the JSON's own keys (`$[1].price_was`); `reason` says what is wrong.
    case couldNotParse(path: String, reason: String)

    /// `MapperError.couldNotParse(path, reason)`.
    public var description: String {
        switch self {
        case .couldNotParse(let path, let reason): return "MapperError.couldNotParse(\(path): \(reason))"
        }
    }
}

/// Turns a response body into view models: decodes it, stores the models in **one** write
/// transaction, and returns the view models.
///
///     let mapper = Mapper<[Pizza], Pizza, PizzaViewModel>(store: store, viewModel: PizzaViewModel.init)
///     network.fetch(url: pizzasURL).asObservable()
///         .flatMap { mapper.fromJSON($0, on: background).asObservable() }
///
/// Keys are decoded from `snake_case` (`price_was` → `priceWas`). Models are upserted with
/// `.modified`. With `deletesMissing` (the default, for whole-list endpoints where the server is
/// the full truth) stored objects of the model type that the response no longer contains are
/// deleted in the same transaction. Malformed JSON, a missing field or a wrong type fails with
/// ``MapperError/couldNotParse(path:reason:)`` and leaves the store exactly as it was.
public struct Mapper<Response: Decodable, Model: StoreObject, ViewModel>: @unchecked Sendable {
    /// The store the models are written to.
    public let store: Store
    /// Whether stored objects missing from the response are deleted.
    public let deletesMissing: Bool
    private let models: (Response) throws -> [Model]
    private let viewModel: (Model) -> ViewModel

    /// Creates a mapper.
    ///
    /// - Parameters:
    ///   - store: Where models are written.
    ///   - deletesMissing: Delete stored objects of `Model` that the response does not contain
    ///     (`true` by default: the server is the full truth for a whole list).
    ///   - models: Builds the models from the decoded response.
    ///   - viewModel: Builds a view model from a stored model.
    public init(
        store: Store,
        deletesMissing: Bool = true,
        models: @escaping (Response) throws -> [Model],
        viewModel: @escaping (Model) -> ViewModel
    ) {
        self.store = store
        self.deletesMissing = deletesMissing
        self.models = models
        self.viewModel = viewModel
    }

    /// Decodes, stores and maps `data` now, on the calling thread.
    ///
    /// - Parameter data: A response body.
    /// - Returns: The view models, in the response's order.
    /// - Throws: ``MapperError/couldNotParse(path:reason:)`` for bad JSON (the store is
    ///   untouched), or the store's error if the write fails (rolled back).
    public func map(_ data: Data) throws -> [ViewModel] {
        let models = try decode(data)
        let deletesMissing = self.deletesMissing
        try store.write { transaction in try Self.save(models, deletesMissing: deletesMissing, in: transaction) }
        return models.map(viewModel)
    }

    /// Decodes `data` on the calling task, stores the models with `store.asyncWrite` (on the
    /// store's background writer, so the caller's thread never waits for the commit), and maps
    /// them.
    ///
    ///     let pizzas = try await mapper.asyncMap(data)
    ///
    /// - Parameter data: A response body.
    /// - Returns: The view models, in the response's order.
    /// - Throws: As ``map(_:)``.
    public func asyncMap(_ data: Data) async throws -> [ViewModel] {
        let models = try decode(data)
        let deletesMissing = self.deletesMissing
        // The models go to the writer and come back when the write returns: no two threads use
        // them at once.
        let save = UncheckedSendable { (transaction: Transaction) in
            try Self.save(models, deletesMissing: deletesMissing, in: transaction)
        }
        try await store.asyncWrite { transaction in try save.value(transaction) }
        return models.map(viewModel)
    }

    /// The models of a response body, or ``MapperError/couldNotParse(path:reason:)``.
    private func decode(_ data: Data) throws -> [Model] {
        let response: Response
        if let problem = Self.nestingProblem(in: data) { throw problem }
        do {
            response = try Self.decoder.decode(Response.self, from: data)
        } catch let error as DecodingError {
            throw Self.parseError(error)
        }
        return try models(response)
    }

    /// Upserts `models` and, with `deletesMissing`, deletes the stored ones they do not contain.
    private static func save(_ models: [Model], deletesMissing: Bool, in transaction: Transaction) throws {
        if deletesMissing {
            let kept = Set(models.map { $0[keyPath: Model.primaryKey] })
            let stale = transaction.objects(Model.self).filter { !kept.contains($0[keyPath: Model.primaryKey]) }
            try transaction.delete(stale)
        }
        try transaction.add(models, update: .modified)
    }

    /// The mapping as a `Single` that runs on `scheduler` (keep it off the main scheduler).
    ///
    ///     fromJSON(data, on: s): --[vm]|     or  --x  (MapperError)
    ///
    /// - Parameters:
    ///   - data: A response body.
    ///   - scheduler: Where decoding and the write run.
    /// - Returns: A single of the view models.
    public func fromJSON(_ data: Data, on scheduler: ImmediateSchedulerType) -> Single<[ViewModel]> {
        Single.deferred { .just(try self.map(data)) }.subscribe(on: scheduler)
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

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
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
    ///   - deletesMissing: Delete stored objects that the response does not contain.
    ///   - viewModel: Builds a view model from a stored model.
    public init(store: Store, deletesMissing: Bool = true, viewModel: @escaping (Model) -> ViewModel) {
        self.init(store: store, deletesMissing: deletesMissing, models: { $0 }, viewModel: viewModel)
    }
}
