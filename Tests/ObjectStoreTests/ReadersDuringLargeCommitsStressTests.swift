import Foundation
import Testing
import TestSupport
@testable import ObjectStore
import Locking

/// Readers on several threads while another thread commits large transactions over a store
/// opened from a snapshot of pages (run under the thread sanitizer by CI): each reader sees
/// whole commits only, whatever it reads — an object by key, the count, a query, the listing
/// of every object (which checks the snapshot's pages the first time, on whichever thread
/// gets there first). How long readers wait is measured in `Benchmarks/` (the reader-wait probe).
@Suite(.resourceCheck) struct ReadersDuringLargeCommitsStressTests {
    typealias S = FileStoreSupport

    @Test func readersSeeWholeCommitsOnly() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let count = 3_000
        let label = String(repeating: "z", count: 100)
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
            try store.write { tx in
                try tx.add((0..<count).map { Item(id: $0, group: 0, score: 0, label: label, flag: false, opt: nil, tags: []) })
            }
            try store.compact()
        }
        #expect(S.bytes(url).count > FileFormat.checkWholeSnapshotUpTo)
        let store = try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
        let failures = Locked<[String]>([])
        let done = Locked(false)
        let commits = 8
        // Each commit rewrites every item with the commit's number as its score (and moves it
        // to the next group), so a reader that saw part of a commit would see two scores.
        let writer = Thread {
            for commit in 1...commits {
                do {
                    try store.write { tx in
                        try tx.add((0..<count).map {
                            Item(id: $0, group: commit % 5, score: Double(commit), label: label, flag: commit % 2 == 0, opt: commit, tags: [])
                        }, update: .modified)
                    }
                } catch {
                    failures.withLock { $0.append("write: \(error)") }
                }
            }
            done.withLock { $0 = true }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 4) { reader in
            var rng = SeededRandom(seed: UInt64(300 + reader))
            var rounds = 0
            var lastScore = -1.0
            while !done.withLock({ $0 }) || rounds < 10 {
                rounds += 1
                let key = Int.random(in: 0..<count, using: &rng)
                guard let item = store.object(ofType: Item.self, forPrimaryKey: key) else {
                    failures.withLock { $0.append("key \(key) not found") }
                    continue
                }
                // Commits are seen in order, and an object's fields are those of one commit.
                if item.score < lastScore || item.opt != (item.score == 0 ? nil : Int(item.score)) {
                    failures.withLock { $0.append("item \(key): score \(item.score), opt \(String(describing: item.opt)) after \(lastScore)") }
                }
                lastScore = item.score
                if store.objects(Item.self).count != count { failures.withLock { $0.append("count") } }
                switch rounds % 3 {
                case 0:
                    // One listing is one snapshot: every item carries the same commit.
                    let frozen = store.objects(Item.self).freeze()
                    let scores = Set(frozen.map(\.score))
                    if scores.count != 1 || frozen.count != count { failures.withLock { $0.append("listing: scores \(scores)") } }
                case 1:
                    let frozen = store.objects(Item.self).freeze()
                    let group = frozen[0].group
                    let same = frozen.filter("group == %@", group).count
                    if same != count { failures.withLock { $0.append("\(same) items in group \(group)") } }
                default:
                    let byKey = store.objects(Item.self).filter("id IN %@", [key, (key + 1) % count]).count
                    if byKey != 2 { failures.withLock { $0.append("\(byKey) found by key") } }
                }
            }
        }
        while !done.withLock({ $0 }) { usleep(1_000) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(5) })")
        #expect(store.objects(Item.self).filter("score == %@", Double(commits)).count == count)
        #expect(store._checkInvariants())
    }
}
