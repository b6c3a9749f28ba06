import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// One read decodes each linked object and each link list once and reuses it; integer sorts
/// compare plain integers. These tests check both give exactly what decoding every object on
/// its own, and sorting by the general comparison, give.
@Suite(.resourceCheck) struct ReadPathTests {
    /// A model linking to itself, to reach the depth limit of link resolution.
    final class Node: StoreObject, Equatable {
        static var primaryKey: KeyPath<Node, Int> { \.id }
        var id: Int
        var next: Node?
        var friends: [Node]

        init(id: Int, next: Node?, friends: [Node]) {
            self.id = id
            self.next = next
            self.friends = friends
        }

        /// Equal when the chains of `next` have the same ids and the same friend ids at every
        /// level (linear in the depth; comparing every branch would double at each level).
        static func == (a: Node, b: Node) -> Bool { a.shape == b.shape }

        /// The ids along `next`, each with its friends' ids.
        var shape: [[Int]] {
            var levels: [[Int]] = []
            var node: Node? = self
            while let current = node {
                levels.append([current.id] + current.friends.map(\.id))
                node = current.next
            }
            return levels
        }
    }

    static func menu(count: Int) -> [Pizza] {
        (1...count).map { id in
            var pizza = Fixture.pizzas[id % Fixture.pizzas.count]
            pizza.id = id
            pizza.weight = Int16(id % 7)
            pizza.categories = id % 4 == 0 ? [] : [Fixture.classic, Fixture.veggie, Fixture.spicy].shuffledDeterministically(seed: id)
            pizza.main = id % 5 == 0 ? nil : Fixture.spicy
            return pizza
        }
    }

    /// `toArray` of sorted results of more than 1,024 objects decodes them in storage order
    /// and puts each at its place: the same array as decoding them one by one in order.
    @Test(arguments: StoreBackend.allCases) func aSortedReadGivesTheObjectsInTheirOrder(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let pizzas = Self.menu(count: 3_000)
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        for (key, ascending) in [("weight", true), ("weight", false), ("name", true), ("id", false)] {
            let results = store.objects(Pizza.self).sorted(byKeyPath: key, ascending: ascending)
            let read = results.toArray()
            var oneByOne: [Pizza] = []
            for i in 0..<results.count { oneByOne.append(results[i]) }
            #expect(read == oneByOne)
            #expect(read.count == 3_000)
        }
        let filtered = store.objects(Pizza.self).filter("weight > 2").sorted(byKeyPath: "price", ascending: false)
        #expect(filtered.toArray() == filtered.map { $0 })
    }

    @Test(arguments: StoreBackend.allCases) func aReadReusingLinkedObjectsGivesWhatOneByOneDecodingGives(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let pizzas = Self.menu(count: 300)
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        let read = store.objects(Pizza.self).toArray()
        let oneByOne = pizzas.map { store.object(ofType: Pizza.self, forPrimaryKey: $0.id) }
        #expect(read == oneByOne.compactMap { $0 })
        #expect(read.map(\.categories) == pizzas.map(\.categories))
        var iterated: [Pizza] = []
        for pizza in store.objects(Pizza.self) { iterated.append(pizza) }
        #expect(iterated == read)
        #expect(store.objects(Pizza.self).map(\.main) == pizzas.map(\.main))
    }

    /// Hundreds of different link lists, more than a read keeps at hand by a mix of their keys
    /// (so lists share and replace those places): each object still gets exactly its own list,
    /// in its order, in a plain and in a sorted read.
    @Test(arguments: StoreBackend.allCases) func aReadOverManyDifferentLinkListsGivesEachObjectItsOwn(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        // Ids apart from the fixture's categories (the menu's `main` links to one of those).
        let categories = (101...124).map { Category(id: $0, name: "Category \($0)") }
        let pizzas = Self.menu(count: 2_000).map { pizza in
            var pizza = pizza
            let id = pizza.id
            pizza.categories = (0..<(id % 4)).map { categories[(id / (7 * ($0 + 1)) + $0 * 5) % categories.count] }
            return pizza
        }
        #expect(Set(pizzas.map { $0.categories.map(\.id) }).count > 200)
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        let read = store.objects(Pizza.self).toArray()
        #expect(read.map(\.categories) == pizzas.map(\.categories))
        let sorted = store.objects(Pizza.self).sorted(byKeyPath: "weight").toArray()
        let byID = Dictionary(uniqueKeysWithValues: pizzas.map { ($0.id, $0.categories) })
        #expect(sorted.count == pizzas.count)
        #expect(sorted.allSatisfy { byID[$0.id] == $0.categories })
    }

    @Test(arguments: StoreBackend.allCases) func aLinkedObjectChangedInAnotherWriteIsReadFresh(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.menu(count: 20), update: .modified) }
        let before = store.objects(Pizza.self).toArray()
        try store.write { tx in try tx.add(Category(id: Fixture.spicy.id, name: "Hot"), update: .modified) }
        let after = store.objects(Pizza.self).toArray()
        #expect(before.contains { $0.categories.contains(Fixture.spicy) })
        #expect(!after.contains { $0.categories.contains(Fixture.spicy) })
        #expect(after.allSatisfy { pizza in pizza.main == nil || pizza.main?.name == "Hot" })
    }

    @Test(arguments: StoreBackend.allCases) func aLinkToADeletedObjectIsSkippedInEveryObject(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.menu(count: 12), update: .modified) }
        try store.write { tx in _ = try tx.delete(Category.self, forPrimaryKey: Fixture.veggie.id) }
        let read = store.objects(Pizza.self).toArray()
        #expect(read.allSatisfy { !$0.categories.contains(Fixture.veggie) })
        #expect(read.map(\.id).compactMap { store.object(ofType: Pizza.self, forPrimaryKey: $0) } == read)
    }

    @Test(arguments: StoreBackend.allCases) func linksDeeperThanTheLimitEndTheSameWayWithOrWithoutReuse(_ backend: StoreBackend) throws {
        // A ring of 40 nodes: decoding stops resolving links 32 levels deep, whether an object
        // is read on its own or in a read of all of them, and both give the same values.
        // Two links from every node to the next one: decoding without reuse would build
        // 2^32 objects per node before the depth limit stops it (it used to hang).
        let nodes = (1...40).map { Node(id: $0, next: nil, friends: []) }
        for (index, node) in nodes.enumerated() {
            node.next = nodes[(index + 1) % nodes.count]
            node.friends = [nodes[(index + 1) % nodes.count]]
        }
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(nodes, update: .modified) }
        let read = store.objects(Node.self).sorted(byKeyPath: "id").toArray()
        let oneByOne = (1...40).compactMap { store.object(ofType: Node.self, forPrimaryKey: $0) }
        #expect(read.count == 40)
        #expect(read == oneByOne)
        // 33 levels: the node itself and 32 resolved links; the last one links nowhere.
        #expect(read.allSatisfy { $0.shape.count == 33 })
        #expect(read[0].shape.prefix(3) == [[1, 2], [2, 3], [3, 4]])
    }

    @Test(arguments: StoreBackend.allCases, [true, false])
    func integerSortsMatchTheGeneralComparison(_ backend: StoreBackend, ascending: Bool) throws {
        let store = try backend.makeStore()
        let pizzas = Self.menu(count: 200)
        try store.write { tx in try tx.add(pizzas, update: .modified) }
        // `weight` (Int16) has many ties: equal keys keep store order, as the general path does.
        let fast = store.objects(Pizza.self).sorted(byKeyPath: "weight", ascending: ascending).map(\.id)
        let expected = pizzas.enumerated().sorted { a, b in
            if a.element.weight != b.element.weight {
                return ascending ? a.element.weight < b.element.weight : a.element.weight > b.element.weight
            }
            return a.offset < b.offset
        }.map(\.element.id)
        #expect(fast == expected)
        // A second key takes the general path; it must agree where the first key decides.
        let general = store.objects(Pizza.self).sorted(by: [SortDescriptor(keyPath: "weight", ascending: ascending), SortDescriptor(keyPath: "id")]).map(\.id)
        #expect(general == expected)
    }

    @Test(arguments: StoreBackend.allCases) func anIntegerSortWithNilsTakesTheGeneralPath(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Fixture.pizzas, update: .modified) }
        let ratings = store.objects(Pizza.self).sorted(byKeyPath: "rating").map(\.rating)
        #expect(ratings == [nil, 2, 3, 4, 4, 5])
        #expect(sortedOrder(ofIntegers: [.int(2), .null, .int(1)], ascending: true) == nil)
        #expect(sortedOrder(ofIntegers: [.int(2), .int(1), .int(2), .int(0)], ascending: true) == [3, 1, 0, 2])
        #expect(sortedOrder(ofIntegers: [.int(2), .int(1), .int(2), .int(0)], ascending: false) == [0, 2, 1, 3])
    }
}

private extension Array {
    /// A fixed permutation chosen by `seed` (the tests must not depend on the run).
    func shuffledDeterministically(seed: Int) -> [Element] {
        var generator = SeededRandom(seed: UInt64(seed))
        return shuffled(using: &generator)
    }
}
