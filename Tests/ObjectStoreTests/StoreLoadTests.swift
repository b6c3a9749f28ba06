import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Issue 9's store load: 1,000 threads at once — 500 writers moving money between accounts and
/// recording each move, 500 readers checking what they see — plus a live observer. No write is
/// lost, and no reader or observer ever sees half a transaction (the total never changes).
@Suite(.resourceCheck) struct StoreLoadTests {
    struct Account: StoreObject {
        static var primaryKey: KeyPath<Account, Int> { \.id }
        var id: Int
        var balance: Int
    }

    struct Move: StoreObject {
        static var primaryKey: KeyPath<Move, String> { \.id }
        var id: String          // "writer-transaction"
        var from: Int
        var to: Int
        var amount: Int
    }

    static let accounts = 50
    static let opening = 1_000
    static let writers = 500
    static let readers = 500
    static let transactionsPerWriter = 4
    static let readsPerReader = 10

    @Test func concurrentWritersAndReadersLoseNothingAndSeeOnlyWholeTransactions() throws {
        let store = Store()
        try store.write { tx in
            try tx.add((0..<Self.accounts).map { Account(id: $0, balance: Self.opening) })
        }
        let total = Self.accounts * Self.opening

        // A live observer on its own queue: every delivered state must balance too.
        let observed = Tally()
        let observerQueue = SerialDispatchQueueScheduler(internalSerialQueueName: "store-load-observer")
        let observation = store.objects(Account.self).asObservable(on: observerQueue)
            .subscribe(onNext: { accounts in observed.record(balanced: accounts.reduce(0) { $0 + $1.balance } == total) })

        let failures = Tally()
        let reads = Tally()
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        var threads: [Thread] = []
        for writer in 0..<Self.writers {
            finished.enter()
            threads.append(Thread {
                start.wait()
                var generator = SystemRandomNumberGenerator()
                for transaction in 0..<Self.transactionsPerWriter {
                    do {
                        try store.write { tx in
                            let from = Int.random(in: 0..<Self.accounts, using: &generator)
                            let to = (from + Int.random(in: 1..<Self.accounts, using: &generator)) % Self.accounts
                            guard var source = tx.object(ofType: Account.self, forPrimaryKey: from),
                                  var target = tx.object(ofType: Account.self, forPrimaryKey: to) else {
                                throw StoreLoadError.missingAccount
                            }
                            let amount = Int.random(in: 1...50, using: &generator)
                            source.balance -= amount
                            target.balance += amount
                            try tx.add([source, target], update: .modified)
                            try tx.add(Move(id: "\(writer)-\(transaction)", from: from, to: to, amount: amount))
                        }
                    } catch {
                        failures.record(balanced: false)
                    }
                }
                finished.leave()
            })
        }
        for _ in 0..<Self.readers {
            finished.enter()
            threads.append(Thread {
                start.wait()
                for _ in 0..<Self.readsPerReader {
                    // A `for` loop iterates one committed snapshot.
                    var sum = 0
                    var count = 0
                    for account in store.objects(Account.self) {
                        sum += account.balance
                        count += 1
                    }
                    reads.record(balanced: sum == total && count == Self.accounts)
                }
                finished.leave()
            })
        }
        for thread in threads {
            thread.stackSize = 256 * 1024
            thread.start()
        }
        for _ in threads { start.signal() }
        #expect(finished.wait(timeout: .now() + 120) == .success)

        #expect(failures.count == 0)
        #expect(reads.count == Self.readers * Self.readsPerReader)
        #expect(reads.unbalanced == 0)

        let moves = store.objects(Move.self)
        #expect(moves.count == Self.writers * Self.transactionsPerWriter)
        let expectedIDs = Set((0..<Self.writers).flatMap { w in (0..<Self.transactionsPerWriter).map { "\(w)-\($0)" } })
        #expect(Set(moves.map(\.id)) == expectedIDs)
        #expect(store.objects(Account.self).reduce(0) { $0 + $1.balance } == total)
        #expect(store.version == 1 + Self.writers * Self.transactionsPerWriter)

        // Replaying the recorded moves from the opening balances gives the stored balances:
        // every committed move is in both places, or in neither.
        var replayed = [Int](repeating: Self.opening, count: Self.accounts)
        for move in moves {
            replayed[move.from] -= move.amount
            replayed[move.to] += move.amount
        }
        #expect(store.objects(Account.self).sorted(byKeyPath: "id").map(\.balance) == replayed)

        // The observer catches up with the last commit, and never saw an unbalanced state.
        let deadline = Date().addingTimeInterval(30)
        while observed.lastBalancedCountStable(after: store) == false, Date() < deadline { usleep(10_000) }
        #expect(observed.count > 0)
        #expect(observed.unbalanced == 0)
        observation.dispose()
        #expect(store._checkInvariants())
    }
}

private enum StoreLoadError: Error { case missingAccount }

/// Counts checks from many threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var checks = 0
    private var failed = 0
    func record(balanced: Bool) {
        lock.withLock {
            checks += 1
            if !balanced { failed += 1 }
        }
    }
    var count: Int { lock.withLock { checks } }
    var unbalanced: Int { lock.withLock { failed } }

    private var lastSeen = -1
    /// `true` once no delivery arrived since the previous call (the observer went quiet).
    func lastBalancedCountStable(after store: Store) -> Bool {
        lock.withLock {
            defer { lastSeen = checks }
            return checks == lastSeen
        }
    }
}
