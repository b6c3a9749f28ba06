import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// The store's lock order (``StoreCore``'s doc comment): the rule itself, the ranks the real
/// paths hold, and, in debug builds, the check stopping a program that breaks the order.
@Suite(.resourceCheck) struct LockOrderTests {
    typealias S = FileStoreSupport

    /// Every nesting the store's paths make keeps the order.
    @Test func theStoresNestingsKeepTheOrder() {
        let kept: [(StoreLockRank, [StoreLockRank])] = [
            (.leaf, []),
            (.leaf, [.fileOpen]),                          // an open looks the file up in the registry
            (.fileOpen, [.fileOpen]),                      // a migration opens another store
            (.write, [.fileOpen]),                         // ... and writes it
            (.fileOpen, [.write]),                         // a file store opened in a write block
            (.write, [.write]),                            // a write block writes another store
            (.publication, [.write]),                      // a commit is published
            (.leaf, [.write, .publication]),               // ... swapping the state, queuing deliveries
            (.leaf, [.fileOpen, .write, .publication]),
        ]
        for (taken, held) in kept {
            #expect(StoreLockRank.violation(taking: taken, holding: held) == nil, "\(taken) with \(held) held")
        }
    }

    /// Taking a lock outward, or a second leaf, breaks the order; the message names both locks.
    @Test func takingALockOutwardBreaksTheOrder() {
        let broken: [(StoreLockRank, [StoreLockRank])] = [
            (.write, [.publication]),                      // a write under atCurrentVersion
            (.publication, [.leaf]),
            (.leaf, [.leaf]),                              // two leaves at once
            (.publication, [.publication]),                // not recursive: a deadlock on one store
            (.write, [.write, .publication]),
        ]
        for (taken, held) in broken {
            #expect(StoreLockRank.violation(taking: taken, holding: held) != nil, "\(taken) with \(held) held")
        }
        #expect(StoreLockRank.violation(taking: .write, holding: [.write, .publication])
            == "store lock order broken: took write with publication held (held: write, publication); see StoreCore's lock order")
    }

    #if DEBUG
    /// The ranks the write path holds where it calls out: the write block holds the write
    /// lock; an observer decides under the publication lock too; deliveries run under none.
    @Test func theWritePathHoldsTheRanksTheOrderSays() throws {
        let store = Store()
        let observer = RankRecorder()
        store.core.register(observer) { _ in nil }
        defer { store.core.unregister(observer) }
        #expect(HeldStoreLocks.current.ranks == [])
        let inBlock = try store.write { tx in
            try tx.add(Memo(id: 1, topic: "a", text: ""))
            return HeldStoreLocks.current.ranks
        }
        #expect(inBlock == [.write])
        #expect(observer.deciding == [.write, .publication])
        #expect(observer.delivering == [])
        #expect(store.core.atCurrentVersion { _ in HeldStoreLocks.current.ranks } == [.publication])
        #expect(HeldStoreLocks.current.ranks == [])
    }

    /// Records the store locks held when it is told of a commit and when its delivery runs.
    private final class RankRecorder: CommitObserver, @unchecked Sendable {
        var deciding: [StoreLockRank]?
        var delivering: [StoreLockRank]?

        func committed(_ commit: CommitChanges) -> (() -> Void)? {
            deciding = HeldStoreLocks.current.ranks
            return { self.delivering = HeldStoreLocks.current.ranks }
        }
    }
    #endif
}

// Exit tests run their body in a process of their own (see FileStoreExitTests.swift for the
// platforms); the check they show is compiled into debug builds only.
#if DEBUG && (os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows))
/// Breaking the lock order stops the program, naming the locks, before it can deadlock.
@Suite(.resourceCheck) struct LockOrderCheckExitTests {
    typealias S = FileStoreSupport

    /// A write inside `atCurrentVersion` takes the write lock under the publication lock (and
    /// would then wait for the publication lock it holds to publish: without the check, this
    /// body hangs).
    @Test func aWriteUnderThePublicationLockStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = Store()
            store.core.atCurrentVersion { _ in
                try? store.write { try $0.add(Memo(id: 1, topic: "a", text: "")) }
            }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("store lock order broken: took write with publication held"))
    }

    /// A write block may open a file store, new or already open (the one exception to the
    /// order, see `StoreCore`): the debug check lets it through and the store works.
    @Test func openingAFileStoreInAWriteBlockIsAllowed() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let store = Store()
        try store.register(Memo.self)
        try store.write { tx in
            let file = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
            try file.write { try $0.add(Memo(id: 1, topic: "a", text: "")) }
            _ = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
            try tx.add(Memo(id: 2, topic: "b", text: ""))
        }
        #expect(try Store(configuration: .file(url: url, objectTypes: [Memo.self])).objects(Memo.self).count == 1)
        #expect(store.objects(Memo.self).count == 1)
    }
}
#endif
