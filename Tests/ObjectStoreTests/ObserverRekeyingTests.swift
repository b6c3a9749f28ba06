import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Observed results across commits that each delete the object with the lowest key and add it
/// back under a new key. Every such commit leaves one more deleted slot behind; once they
/// outnumber the live objects the published table drops them and numbers its rows again, and
/// the observer's next step must not place the touched objects among slots of the old numbering.
@Suite(.resourceCheck) struct ObserverRekeyingTests {
    struct Note: StoreObject, Equatable {
        static var primaryKey: KeyPath<Note, Int> { \.id }
        var id: Int
        var title: String
        var rank: Int
    }

    /// 100 notes (keys 0…99), then 101 commits each moving the note with the lowest key to the
    /// next new key (100, 101, …), observed with no query: each change set turns the list shown
    /// into the new one, and the last list is what the store holds.
    @Test(arguments: StoreBackend.allCases)
    func hundredAndOneRekeyingCommits(_ backend: StoreBackend) throws {
        let store = try backend.makeStore(objectTypes: [Note.self])
        try store.write { tx in
            for id in 0..<100 { try tx.add(Note(id: id, title: "note \(id)", rank: id % 7)) }
        }
        let shown = ShownChanges<Note>()
        let subscription = store.objects(Note.self).observe(on: ImmediateScheduler.instance)
            .subscribe(onNext: { shown.apply($0) })
        defer { subscription.dispose() }

        for step in 0..<101 {
            try store.write { tx in
                let lowest = tx.objects(Note.self).sorted(byKeyPath: "id").first!
                try tx.delete(lowest)
                try tx.add(Note(id: 100 + step, title: lowest.title, rank: lowest.rank))
            }
        }

        // The 101st commit left 101 deleted slots beside 100 objects: the table was numbered again.
        #expect(store.core.snapshot().tables["Note"]?.slotCount == 100)
        #expect(shown.failures.isEmpty, "\(shown.failures.prefix(5))")
        #expect(shown.updates == 101)
        let fresh = store.objects(Note.self).toArray()
        #expect(shown.list == fresh)
        #expect(fresh.map(\.id) == Array(101..<201))
    }
}
