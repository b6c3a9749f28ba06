import Foundation
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// A message as stored: `isRead` and `sendState` exist only on this device.
private struct Message: StoreObject, Equatable {
    static var primaryKey: KeyPath<Message, String> { \.id }
    var id: String
    var text: String
    var isRead: Bool
    var sendState: String
}

/// A message as the server sends it.
private struct MessageResponse: Decodable {
    var id: String
    var text: String
}

@Suite(.resourceCheck) struct MapperMergeTests {
    private func mapper(_ store: Store) -> Mapper<[MessageResponse], Message, Message> {
        Mapper(store: store, covers: .page, models: { $0.map { Message(id: $0.id, text: $0.text, isRead: false, sendState: "sent") } }, viewModel: { $0 })
    }

    private let answer = Data(#"[{"id": "m1", "text": "hello (edited)"}, {"id": "m2", "text": "new"}]"#.utf8)

    @Test func withoutAMergeTheServerOverwritesLocalFields() throws {
        let store = Store()
        try store.write { tx in try tx.add(Message(id: "m1", text: "hello", isRead: true, sendState: "sent")) }
        _ = try mapper(store).map(answer)
        #expect(store.object(ofType: Message.self, forPrimaryKey: "m1")?.isRead == false)
    }

    @Test func aMergeKeepsLocalFieldsAndTakesTheServers() throws {
        let store = Store()
        try store.write { tx in try tx.add(Message(id: "m1", text: "hello", isRead: true, sendState: "sent")) }
        let merging = mapper(store).merging { incoming, stored in
            var merged = incoming
            merged.isRead = stored.isRead
            return merged
        }
        let rows = try merging.map(answer)
        let expected = [Message(id: "m1", text: "hello (edited)", isRead: true, sendState: "sent"),
                        Message(id: "m2", text: "new", isRead: false, sendState: "sent")]
        #expect(rows == expected)                                        // the view models see the merge
        #expect(store.objects(Message.self).sorted(byKeyPath: "id").toArray() == expected)
    }

    @Test func theAsyncMapMergesToo() async throws {
        let store = Store()
        try store.write { tx in try tx.add(Message(id: "m2", text: "draft", isRead: true, sendState: "sending")) }
        let merging = mapper(store).merging { incoming, stored in
            var merged = incoming
            merged.isRead = stored.isRead
            merged.sendState = "sent"
            return merged
        }
        let rows = try await merging.asyncMap(answer)
        #expect(rows.map(\.isRead) == [false, true])
        #expect(store.object(ofType: Message.self, forPrimaryKey: "m2") == Message(id: "m2", text: "new", isRead: true, sendState: "sent"))
    }
}
