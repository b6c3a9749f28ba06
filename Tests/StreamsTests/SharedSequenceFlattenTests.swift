import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SharedSequenceFlattenTests {
    @Test func flatMapLatestFollowsTheLatestInnerDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let outer = scheduler.createHotObservable([.next(210, "a"), .next(240, "b"), .completed(400)])
            let a = scheduler.createHotObservable([.next(220, 1), .next(250, 2)])
            let b = scheduler.createHotObservable([.next(230, 10), .next(260, 20), .completed(300)])
            let res = scheduler.start {
                outer.asDriver(onErrorJustReturn: "")
                    .flatMapLatest { key in (key == "a" ? a : b).asDriver(onErrorJustReturn: -1) }
                    .asObservable()
            }
            #expect(res.events == [.next(221, 1), .next(261, 20), .completed(401)])
            #expect(a.subscriptions == [Subscription(211, 241)])
            #expect(b.subscriptions == [Subscription(241, 300)])
        }
    }

    @Test func flatMapMergesAndFlatMapFirstSkips() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let outer = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .completed(300)])
            let merged = scheduler.start {
                outer.asDriver(onErrorJustReturn: 0).flatMap { value in Driver.just(value * 10) }.asObservable()
            }
            #expect(merged.events == [.next(212, 10), .next(217, 20), .completed(301)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            let outer = scheduler2.createHotObservable([.next(210, 1), .next(215, 2), .next(260, 3), .completed(300)])
            let inner = scheduler2.createColdObservable([.next(10, 0), .completed(30)])
            let first = scheduler2.start {
                outer.asDriver(onErrorJustReturn: 0)
                    .flatMapFirst { value in inner.map { _ in value }.asDriver(onErrorJustReturn: -1) }
                    .asObservable()
            }
            #expect(first.events == [.next(222, 1), .next(272, 3), .completed(301)])
        }
    }

    @Test func combineLatestOfDrivers() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
            let ys = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
            let zs = scheduler.createHotObservable([.next(205, true)])
            let res = scheduler.start {
                Driver.combineLatest(
                    xs.asDriver(onErrorJustReturn: 0),
                    ys.asDriver(onErrorJustReturn: ""),
                    zs.asDriver(onErrorJustReturn: false)
                ) { "\($0)\($1)\($2 ? "!" : "")" }.asObservable()
            }
            #expect(res.events == [.next(221, "1a!"), .next(231, "2a!"), .next(241, "2b!")])
        }
    }

    @Test func combineLatestTuplesAndCollections() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            var pairs: [String] = []
            var sums: [Int] = []
            var arrays: [[Int]] = []
            let bag = DisposeBag()
            Driver.combineLatest(Driver.just(1), Driver.just("x"))
                .drive(onNext: { pairs.append("\($0.0)\($0.1)") })
                .disposed(by: bag)
            Driver.combineLatest([Driver.just(1), Driver.just(2)]) { $0.reduce(0, +) }
                .drive(onNext: { sums.append($0) })
                .disposed(by: bag)
            Driver<[Int]>.combineLatest([Driver.just(3), Driver.just(4)])
                .drive(onNext: { arrays.append($0) })
                .disposed(by: bag)
            scheduler.start()
            #expect(pairs == ["1x"])
            #expect(sums == [3])
            #expect(arrays == [[3, 4]])
        }
    }

    @Test func withLatestFromAndScan() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let taps = scheduler.createHotObservable([.next(210, ()), .next(230, ()), .next(250, ())])
            let text = scheduler.createHotObservable([.next(220, "a"), .next(240, "b")])
            let res = scheduler.start {
                taps.asSignal(onErrorJustReturn: ())
                    .withLatestFrom(text.asDriver(onErrorJustReturn: ""))
                    .scan("") { $0 + $1 }
                    .asObservable()
            }
            #expect(res.events == [.next(231, "a"), .next(251, "ab")])
            let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
                Driver.of(1, 2).withLatestFrom(Driver.just(10)) { $0 + $1 }.asObservable()
            }
            #expect(res2.events.compactMap { $0.value.element } == [11, 12])
        }
    }
}
