import Foundation
import ObjectStore
import Repository
import Testing
import TestSupport

/// Hostile bodies for the JSON mappers: each one is a
/// `MapperError.couldNotParse` (or maps correctly), never a crash, and the store is untouched.
@Suite(.resourceCheck) struct MapperHostileInputTests {
    private func mapper(_ store: Store) -> Mapper<[Pizza], Pizza, PizzaViewModel> {
        Mapper(store: store, viewModel: PizzaViewModel.init)
    }

    /// Maps `body` into a store holding one pizza; returns the error and checks the store kept
    /// exactly that pizza when mapping failed.
    private func failure(_ body: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> MapperError? {
        let original = [Pizza(id: 1, name: "A", priceWas: 1)]
        let store = try makePizzaStore(original)
        let version = store.version
        do {
            _ = try mapper(store).map(body)
            return nil
        } catch let error as MapperError {
            #expect(storedPizzas(store) == original, sourceLocation: sourceLocation)
            #expect(store.version == version, sourceLocation: sourceLocation)
            return error
        }
    }

    @Test func invalidUTF8IsMalformedJSON() throws {
        var body = Data(#"[{"id": 2, "name": ""#.utf8)
        body.append(contentsOf: [0xFF, 0xFE, 0xC3, 0x28])
        body.append(contentsOf: Data(#"", "price_was": 1}]"#.utf8))
        guard case .couldNotParse(let path, let reason)? = try failure(body) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(path == "$")
        #expect(reason.hasPrefix("malformed JSON"))
    }

    @Test func aHugeStringIsStoredWhole() throws {
        let name = String(repeating: "Quattro Stagioni ", count: 200_000)    // 3.4 MB
        let store = try makePizzaStore()
        let viewModels = try mapper(store).map(Data(pizzasJSON([(7, name, 9.5)]).utf8))
        #expect(viewModels.count == 1)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 7)?.name == name)
    }

    @Test func deeplyNestedJSONIsAnErrorNotAStackOverflow() throws {
        for depth in [1_000, 100_000] {
            let body = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
            let error = try failure(body)
            #expect(error != nil, "depth \(depth)")
        }
        let objects = String(repeating: #"{"a":"#, count: 100_000) + "1" + String(repeating: "}", count: 100_000)
        #expect(try failure(Data(objects.utf8)) != nil)
    }

    /// Every depth from 1 to 2,000 of `[`, `{` and `{"a":`, closed and unclosed: below the
    /// limit whatever the decoder says (a typed error, or `[]` mapped), beyond it the Mapper's
    /// own error naming the limit; never a trap (Foundation on Linux traps on a body whose
    /// nesting reaches 513 exactly at its last byte).
    @Test func everyNestingDepthIsAnErrorOrAMappingNeverATrap() throws {
        let limit = Mapper<[Pizza], Pizza, PizzaViewModel>.maximumNestingDepth
        #expect(limit == 512)
        let store = try makePizzaStore([Pizza(id: 1, name: "A", priceWas: 1)])
        let mapper = self.mapper(store)
        let shapes: [(open: String, inner: String, close: String)] = [("[", "", "]"), ("{", "", "}"), (#"{"a":"#, "1", "}")]
        for shape in shapes {
            for depth in 1...2_000 {
                for closed in [false, true] {
                    let text = String(repeating: shape.open, count: depth) + (closed ? shape.inner + String(repeating: shape.close, count: depth) : "")
                    let version = store.version
                    do {
                        _ = try mapper.map(Data(text.utf8))
                        #expect(depth <= limit, "\(shape.open) × \(depth) mapped")
                    } catch let error as MapperError {
                        #expect(store.version == version)
                        if depth > limit {
                            #expect(error == .couldNotParse(path: "$", reason: "JSON nested deeper than \(limit) levels"),
                                    "\(shape.open) × \(depth), closed: \(closed): \(error)")
                        }
                    }
                }
            }
        }
    }

    /// Brackets inside strings are text, not nesting.
    @Test func bracketsInStringsDoNotCountAsNesting() throws {
        let escaped = String(repeating: "[{", count: 1_000) + #"\"]"#   // an escaped quote does not end the string
        let store = try makePizzaStore()
        let viewModels = try mapper(store).map(Data(pizzasJSON([(3, escaped, 1)]).utf8))
        #expect(viewModels.count == 1)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 3)?.name == String(repeating: "[{", count: 1_000) + "\"]")
    }

    @Test func numbersOutOfRangeAreTypedErrors() throws {
        let tooBig = #"[{"id": 99999999999999999999999, "name": "A", "price_was": 1}]"#
        guard case .couldNotParse(let path, _)? = try failure(Data(tooBig.utf8)) else {
            Issue.record("an id beyond Int64 was accepted")
            return
        }
        // Foundation on Linux reports a number that does not fit as invalid JSON with no coding
        // path; on Apple platforms the path names the field.
        #expect(["$[0].id", "$"].contains(path))

        let fraction = #"[{"id": 1.5, "name": "A", "price_was": 1}]"#
        guard case .couldNotParse(let fractionPath, _)? = try failure(Data(fraction.utf8)) else {
            Issue.record("a fractional id was accepted")
            return
        }
        #expect(["$[0].id", "$"].contains(fractionPath))

        let huge = #"[{"id": 1, "name": "A", "price_was": 1e400}]"#
        #expect(try failure(Data(huge.utf8)) != nil)
    }

    @Test func truncatedAndEmptyBodiesAreMalformed() throws {
        for body in ["", "[", #"[{"id": 1"#, "\u{0}", "[]]", "null"] {
            #expect(try failure(Data(body.utf8)) != nil, "\(body.debugDescription)")
        }
    }
}
