import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Repository
import Testing
import TestSupport

@Suite(.resourceCheck) struct NetworkErrorTests {
    @Test func equalityComparesCasesAndValues() {
        #expect(NetworkError.timedOut == .timedOut)
        #expect(NetworkError.timedOut != .cancelled)
        #expect(NetworkError.badStatus(code: 404, body: Data("a".utf8)) == .badStatus(code: 404, body: Data("a".utf8)))
        #expect(NetworkError.badStatus(code: 404, body: Data("a".utf8)) != .badStatus(code: 404, body: Data("b".utf8)))
        #expect(NetworkError.badStatus(code: 404, body: Data()) != .badStatus(code: 500, body: Data()))
        #expect(NetworkError.tooLarge(limit: 1) == .tooLarge(limit: 1))
        #expect(NetworkError.tooLarge(limit: 1) != .tooLarge(limit: 2))
        #expect(NetworkError.unreachable(underlying: TestError.code(1)) == .unreachable(underlying: TestError.code(1)))
        #expect(NetworkError.unreachable(underlying: TestError.code(1)) != .unreachable(underlying: TestError.code(2)))
        #expect(NetworkError.unreachable(underlying: URLError(.notConnectedToInternet)) == FixtureNetwork.offlineError)
    }

    @Test func descriptionsNameTheCase() {
        #expect(NetworkError.timedOut.description == "NetworkError.timedOut")
        #expect(NetworkError.badStatus(code: 503, body: Data("busy".utf8)).description == "NetworkError.badStatus(code: 503, body: 4 bytes)")
        #expect(NetworkError.tooLarge(limit: 10).description == "NetworkError.tooLarge(limit: 10)")
        #expect(NetworkError.unreachable(underlying: TestError.boom).description == "NetworkError.unreachable(boom)")
    }

    @Test func validationAcceptsOnlyTwoHundredsWithABody() {
        let configuration = NetworkConfiguration(maximumBodySize: 4)
        let body = Data("abcd".utf8)
        #expect(ResponseValidation.validate(status: 200, body: body, configuration: configuration) == .success(body))
        #expect(ResponseValidation.validate(status: 299, body: body, configuration: configuration) == .success(body))
        #expect(ResponseValidation.validate(status: 199, body: body, configuration: configuration) == .failure(.badStatus(code: 199, body: body)))
        #expect(ResponseValidation.validate(status: 300, body: body, configuration: configuration) == .failure(.badStatus(code: 300, body: body)))
        #expect(ResponseValidation.validate(status: 200, body: Data(), configuration: configuration) == .failure(.emptyBody))
        #expect(ResponseValidation.validate(status: 200, body: Data("abcde".utf8), configuration: configuration) == .failure(.tooLarge(limit: 4)))
        #expect(ResponseValidation.validate(status: 500, body: Data("abcde".utf8), configuration: configuration) == .failure(.tooLarge(limit: 4)))
        let allowing = NetworkConfiguration(allowsEmptyBody: true)
        #expect(ResponseValidation.validate(status: 204, body: Data(), configuration: allowing) == .success(Data()))
    }

    @Test func httpMethodSpellings() {
        #expect(HTTPMethod.get.rawValue == "GET")
        #expect(HTTPMethod.delete.description == "DELETE")
        let purge: HTTPMethod = "PURGE"
        #expect(purge == HTTPMethod(rawValue: "PURGE"))
        #expect(purge != .post)
    }
}
