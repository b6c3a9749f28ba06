import Testing
@testable import HeadlessUI

@Test func HeadlessUIModuleBuilds() {
    #expect(String(describing: HeadlessUIModule.self) == "HeadlessUIModule")
}
