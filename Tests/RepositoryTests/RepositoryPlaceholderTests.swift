import Testing
@testable import Repository

@Test func RepositoryModuleBuilds() {
    #expect(String(describing: RepositoryModule.self) == "RepositoryModule")
}
