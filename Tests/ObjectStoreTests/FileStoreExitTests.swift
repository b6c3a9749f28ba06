// Exit tests (`#expect(processExitsWith:)`) run their body in a new process, which Swift
// Testing offers on macOS, Linux, FreeBSD, OpenBSD and Windows only; elsewhere (iOS, tvOS,
// watchOS, visionOS) the macro is unavailable, so this file's suite is left out there.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// What stops the program rather than throwing: each case is run in a process of its own.
@Suite(.resourceCheck) struct FileStoreExitTests {
    typealias S = FileStoreSupport

    /// A model changed without a migration and not listed in objectTypes cannot be caught at
    /// open; its first use stops the program with a message saying what to do.
    @Test func anUnlistedChangedModelStopsAtFirstUse() async {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [url = url as URL] in
            do {
                let store = try Store(configuration: .file(url: url, objectTypes: [V0.Person.self]))
                try store.write { try $0.add(V0.Person(id: 1, name: "Ada", birthYear: 1815, nickname: "")) }
            }
            let store = try Store(configuration: .file(url: url))
            _ = store.objects(V1.Person.self).count
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("List Person in the configuration's objectTypes and raise schemaVersion"))
    }
}
#endif
