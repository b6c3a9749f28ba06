import Testing
@testable import ObjectStore

@Test func ObjectStoreModuleBuilds() {
    #expect(String(describing: ObjectStoreModule.self) == "ObjectStoreModule")
}
