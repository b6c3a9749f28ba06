import Streams
import TestSupport
import Testing

/// `DisposeBag` and `CompositeDisposable` in every form RxSwift 6 spells them.
@Suite(.resourceCheck) struct DisposablesTests {
    /// A disposable that counts its disposals.
    final class Counter: Disposable, @unchecked Sendable {
        var disposals = 0
        func dispose() { disposals += 1 }
    }

    @Test func aBagBuiltWithTheBuilderDisposesEveryLine() {
        let a = Counter(), b = Counter(), c = Counter()
        var bag: DisposeBag? = DisposeBag {
            a
            b
        }
        bag?.insert {
            c
        }
        #expect([a, b, c].map(\.disposals) == [0, 0, 0])
        bag = nil
        #expect([a, b, c].map(\.disposals) == [1, 1, 1])
        _ = bag
    }

    @Test func anArrayInsertedIntoABagIsDisposedWithIt() {
        let a = Counter(), b = Counter()
        var bag: DisposeBag? = DisposeBag()
        bag?.insert([a, b])
        #expect(a.disposals == 0 && b.disposals == 0)
        bag = nil
        #expect(a.disposals == 1 && b.disposals == 1)
        _ = bag
    }

    @Test func aCompositeOfFourOrMoreDisposesAll() {
        let counters = (0..<6).map { _ in Counter() }
        let composite = CompositeDisposable(counters[0], counters[1], counters[2], counters[3], counters[4], counters[5])
        #expect(composite.count == 6)
        composite.dispose()
        #expect(counters.allSatisfy { $0.disposals == 1 })
        let four = CompositeDisposable(Counter(), Counter(), Counter(), Counter())
        #expect(four.count == 4)
        four.dispose()
    }

    @Test func resourcesTotalIsAnInt32AsRxSwiftsIs() {
        let before: Int32 = Resources.total
        let subscription = PublishSubject<Int>().subscribe(onNext: { _ in })
        #expect(Resources.total > before)
        subscription.dispose()
        #expect(Resources.total == before)
    }
}
