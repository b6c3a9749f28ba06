@testable import Repository
import Testing
import TestSupport

@Suite(.resourceCheck) struct MemoryCacheTests {
    @Test func evictsLeastRecentlyUsedBeyondTheCostLimit() {
        var cache = MemoryCache<String, Int>(costLimit: 10)
        cache.insert(1, cost: 4, for: "a")
        cache.insert(2, cost: 4, for: "b")
        #expect(cache.value(for: "a") == 1)           // a is now the most recent
        cache.insert(3, cost: 4, for: "c")             // 12 > 10: b goes
        #expect(cache.value(for: "b") == nil)
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.totalCost == 8)
        #expect(cache.count == 2)
    }

    @Test func replacingAValueUpdatesItsCost() {
        var cache = MemoryCache<String, Int>(costLimit: 10)
        cache.insert(1, cost: 3, for: "a")
        cache.insert(2, cost: 3, for: "b")
        cache.insert(10, cost: 7, for: "a")            // 7 + 3 = 10 fits
        #expect(cache.totalCost == 10)
        #expect(cache.keysByRecency == ["a", "b"])
        #expect(cache.value(for: "a") == 10)
        cache.insert(20, cost: 2, for: "b")
        #expect(cache.totalCost == 9)
    }

    @Test func aValueCostingMoreThanTheLimitIsNotKept() {
        var cache = MemoryCache<String, Int>(costLimit: 5)
        cache.insert(1, cost: 2, for: "a")
        cache.insert(2, cost: 6, for: "huge")
        #expect(cache.value(for: "huge") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.totalCost == 2)
    }

    @Test func removeAndRemoveAll() {
        var cache = MemoryCache<Int, Int>(costLimit: 100)
        for i in 0..<10 { cache.insert(i, cost: 1, for: i) }
        cache.removeValue(for: 0)
        cache.removeValue(for: 9)
        cache.removeValue(for: 5)
        #expect(cache.keysByRecency == [8, 7, 6, 4, 3, 2, 1])
        #expect(cache.totalCost == 7)
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.keysByRecency.isEmpty)
        cache.insert(1, cost: 1, for: 1)
        #expect(cache.keysByRecency == [1])
    }

    @Test func manyEntriesStayWithinTheLimit() {
        var cache = MemoryCache<Int, Int>(costLimit: 1_000)
        for i in 0..<100_000 { cache.insert(i, cost: 3, for: i) }
        #expect(cache.count == 333)
        #expect(cache.totalCost == 999)
        #expect(cache.value(for: 99_999) == 99_999)
        #expect(cache.value(for: 99_666) == nil)
        #expect(cache.value(for: 99_667) == 99_667)
    }
}
