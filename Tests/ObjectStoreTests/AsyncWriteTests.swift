import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// Writes off the calling thread: `writeAsync`, `try await store.asyncWrite` and `store.rx.write`
/// commit on the store's background writer, in order, serialised with synchronous writes, with
/// observers notified as for any commit.
@Suite(.resourceCheck) struct AsyncWriteTests {
    /// A counter kept in a `Category` named by its value.
    private static func increment(_ tx: Transaction) throws {
        let value = Int(tx.object(ofType: Category.self, forPrimaryKey: 0)?.name ?? "0")!
        try tx.add(Category(id: 0, name: "\(value + 1)"), update: .modified)
    }

    private static func counter(_ store: Store) -> Int {
        Int(store.object(ofType: Category.self, forPrimaryKey: 0)?.name ?? "0")!
    }

    @Test(arguments: StoreBackend.allCases)
    func anAwaitedWriteCommitsAndReturnsTheBlocksValue(_ backend: StoreBackend) async throws {
        let store = try Fixture.store(backend)
        let version = store.version
        let name = try await store.asyncWrite { tx -> String in
            try tx.add(Category(id: 10, name: "Async"))
            return "added"
        }
        #expect(name == "added")
        #expect(store.object(ofType: Category.self, forPrimaryKey: 10)?.name == "Async")
        #expect(store.version == version + 1)
        try await store.asyncWrite { tx in _ = try tx.delete(Category.self, forPrimaryKey: 10) }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 10) == nil)
    }

    /// `write` stays synchronous in async code: `try store.write` compiles there without
    /// `await` and has committed when it returns.
    @Test func theSynchronousWriteIsUsableInAsyncCode() async throws {
        let store = try Fixture.store()
        let version = store.version
        try store.write { tx in try tx.add(Category(id: 11, name: "sync")) }
        #expect(store.version == version + 1)
        try await store.asyncWrite { _ in }
    }

    @Test(arguments: StoreBackend.allCases)
    func anAwaitedWriteThatThrowsCommitsNothing(_ backend: StoreBackend) async throws {
        let store = try Fixture.store(backend)
        let version = store.version
        await #expect(throws: TestError.boom) {
            try await store.asyncWrite { tx in
                try tx.deleteAll(Pizza.self)
                throw TestError.boom
            }
        }
        #expect(store.version == version)
        #expect(store.objects(Pizza.self).count == Fixture.pizzas.count)
    }

    /// `writeAsync` called inside a synchronous write does not run there (it would be a nested
    /// write): it is queued, runs after that write, and tells its completion on the scheduler.
    @Test func writeAsyncIsQueuedBehindTheRunningWriteAndCompletesOnTheScheduler() throws {
        let store = try Fixture.store()
        let scheduler = RecordingScheduler()
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedValue<String?>(nil)
        try store.write { tx in
            try tx.add(Category(id: 20, name: "first"))
            store.writeAsync({ tx in
                // The synchronous write above is committed before this block runs.
                let first = tx.object(ofType: Category.self, forPrimaryKey: 20)?.name ?? "missing"
                try tx.add(Category(id: 21, name: "after \(first)"))
            }, on: scheduler, onComplete: { error in
                outcome.set(error.map { "\($0)" } ?? "committed")
                done.signal()
            })
            #expect(tx.object(ofType: Category.self, forPrimaryKey: 21) == nil)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(outcome.get() == "committed")
        #expect(scheduler.scheduled == 1)
        #expect(store.object(ofType: Category.self, forPrimaryKey: 21)?.name == "after first")
    }

    @Test func writeAsyncReportsTheErrorAndCommitsNothing() throws {
        let store = try Fixture.store()
        let version = store.version
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedValue<Swift.Error?>(nil)
        store.writeAsync({ tx in
            try tx.add(Category(id: 30, name: "rolled back"))
            throw TestError.boom
        }, on: ImmediateScheduler.instance, onComplete: { error in
            outcome.set(error)
            done.signal()
        })
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(outcome.get() as? TestError == .boom)
        #expect(store.version == version)
        #expect(store.object(ofType: Category.self, forPrimaryKey: 30) == nil)
    }

    /// Asynchronous writes run in the order they were asked for: each sees the one before.
    @Test func asynchronousWritesRunInOrder() throws {
        let store = try Fixture.store()
        let done = DispatchSemaphore(value: 0)
        let seen = LockedValue<[Int]>([])
        for n in 1...200 {
            store.writeAsync({ tx in
                try Self.increment(tx)
                seen.mutate { $0.append(Int(tx.object(ofType: Category.self, forPrimaryKey: 0)!.name)! == n ? n : -n) }
            }, on: ImmediateScheduler.instance, onComplete: { _ in if n == 200 { done.signal() } })
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(seen.get() == Array(1...200))
        #expect(Self.counter(store) == 200)
    }

    /// Synchronous writes on four threads, `writeAsync` and awaited writes, all incrementing one
    /// counter by read-modify-write: none is lost, so none overlapped another.
    @Test(arguments: StoreBackend.allCases)
    func asynchronousAndSynchronousWritesAreSerialised(_ backend: StoreBackend) async throws {
        let store = try backend.makeStore()
        let threads = 4, syncWrites = 50, asyncWrites = 100, awaitedWrites = 50
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Thread {
                for _ in 0..<syncWrites { try! store.write(Self.increment) }
                finished.signal()
            }.start()
        }
        for n in 0..<asyncWrites {
            store.writeAsync(Self.increment, on: ImmediateScheduler.instance) { error in
                #expect(error == nil)
                if n == asyncWrites - 1 { finished.signal() }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<awaitedWrites { group.addTask { try await store.asyncWrite(Self.increment) } }
            try await group.waitForAll()
        }
        for _ in 0...threads { await Task.detached { finished.wait() }.value }
        #expect(Self.counter(store) == threads * syncWrites + asyncWrites + awaitedWrites)
    }

    @Test func observersAreNotifiedOfAnAwaitedCommit() async throws {
        let store = try Fixture.store()
        let updates = LockedValue<[[Int]]>([])
        let subscription = store.objects(Category.self).sorted(byKeyPath: "id").observe(on: ImmediateScheduler.instance)
            .subscribe(onNext: { change in
                if case .update(let results, _, let insertions, _) = change { updates.mutate { $0.append(results.map(\.id) + insertions.map { -$0 }) } }
            })
        try await store.asyncWrite { tx in try tx.add(Category(id: 40, name: "observed")) }
        // Deliveries on the immediate scheduler run before the awaited write returns.
        #expect(updates.get() == [[1, 2, 3, 40, -3]])
        subscription.dispose()
    }

    /// A task cancelled before its write began throws `CancellationError`, and nothing ran.
    @Test func aTaskCancelledBeforeItsWriteBeganWritesNothing() async throws {
        let store = try Fixture.store()
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        store.writeAsync({ _ in
            holding.signal()
            gate.wait()                  // keeps the writer busy until the task is cancelled
        }, on: ImmediateScheduler.instance)
        await Task.detached { holding.wait() }.value
        let task = Task { try await store.asyncWrite { tx in try tx.add(Category(id: 50, name: "never")) } }
        task.cancel()
        gate.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await store.asyncWrite { _ in }   // every queued write has run
        #expect(store.object(ofType: Category.self, forPrimaryKey: 50) == nil)
    }

    @Test func rxWriteIsASingleThatWritesOncePerSubscription() throws {
        let store = try Fixture.store()
        let write = store.rx.write { tx -> Int in
            try Self.increment(tx)
            return Int(tx.object(ofType: Category.self, forPrimaryKey: 0)!.name)!
        }
        #expect(Self.counter(store) == 0)          // cold: nothing written before a subscription
        let values = LockedValue<[Int]>([])
        let disposed = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            _ = write.subscribe(onSuccess: { value in values.mutate { $0.append(value) } },
                                onFailure: { _ in }, onDisposed: { disposed.signal() })
            #expect(disposed.wait(timeout: .now() + 30) == .success)
        }
        #expect(values.get() == [1, 2])
        let failed = LockedValue<Swift.Error?>(nil)
        _ = store.rx.write { _ in throw TestError.boom }
            .subscribe(onSuccess: { _ in }, onFailure: { failed.set($0) }, onDisposed: { disposed.signal() })
        #expect(disposed.wait(timeout: .now() + 30) == .success)
        #expect(failed.get() as? TestError == .boom)
        store.core.writeQueue.sync {}                // the writer has finished with the subscriptions
    }

    @Test func disposingARxWriteBeforeItBeganCancelsIt() throws {
        let store = try Fixture.store()
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        store.writeAsync({ _ in
            holding.signal()
            gate.wait()
        }, on: ImmediateScheduler.instance)
        holding.wait()
        let subscription = store.rx.write { tx in try tx.add(Category(id: 60, name: "never")) }
            .subscribe(onSuccess: { _ in Issue.record("the cancelled write succeeded") }, onFailure: { _ in })
        subscription.dispose()
        gate.signal()
        store.core.writeQueue.sync {}
        #expect(store.object(ofType: Category.self, forPrimaryKey: 60) == nil)
    }
}

/// A scheduler that counts the work given to it and runs it at once.
private final class RecordingScheduler: ImmediateSchedulerType, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var scheduled: Int { lock.withLock { count } }

    func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        lock.withLock { count += 1 }
        return action(state)
    }
}

/// A value shared between threads.
final class LockedValue<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func get() -> T { lock.withLock { value } }
    func set(_ newValue: T) { lock.withLock { value = newValue } }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&value) } }
}
