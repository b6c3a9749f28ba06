import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// Code written the way RxSwift 6 / RxRelay / RxTest users write it: it must compile unchanged
/// (but for the imports) and behave the same.
@Suite(.resourceCheck) struct RxSwiftPortingTests {
    @Test func everydayOperatorsCompileAndBehaveAsInRxSwift() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(250),
        ])
        let res = scheduler.start {
            xs.asObservable()
                .map { $0 * 10 }
                .filter { $0 > 10 }
                .scan(0, accumulator: +)
                .distinctUntilChanged()
                .startWith(-1)
                .take(3)
        }
        #expect(res.events == [.next(200, -1), .next(220, 20), .next(230, 50), .completed(230)])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func flatteningAndCombining() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(300)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(240, "y"), .completed(300)])
        let res = scheduler.start {
            Observable.combineLatest(a.asObservable(), b.asObservable()) { "\($0)\($1)" }
        }
        #expect(res.events == [.next(220, "1x"), .next(230, "2x"), .next(240, "2y"), .completed(300)])

        let zipped = scheduler.start(created: 400, subscribed: 400, disposed: 1000) {
            Observable.zip(Observable.of(1, 2, 3), Observable.of("a", "b")).map { "\($0)\($1)" }
        }
        #expect(zipped.events.compactMap(\.value.element) == ["1a", "2b"])
    }

    @Test func timeOperatorsOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, 1), .next(220, 2), .next(260, 3), .next(290, 4), .completed(400),
        ])
        let res = scheduler.start {
            xs.asObservable().debounce(.seconds(20), scheduler: scheduler)
        }
        #expect(res.events == [.next(240, 2), .next(280, 3), .next(310, 4), .completed(400)])
    }

    @Test func relaysDriversAndTraits() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        let relay = BehaviorRelay<[String]>(value: [])
        let observer = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            relay.asDriver()
                .map { $0.count }
                .drive(observer)
                .disposed(by: disposeBag)
            scheduler.scheduleAt(300) { relay.accept(["Margherita", "Marinara"]) }
            scheduler.start()
        }
        #expect(observer.events.map(\.value.element) == [0, 2])

        var single: [Int] = []
        Observable.of(1, 2, 3).toArray()
            .map { $0.reduce(0, +) }
            .subscribe(onSuccess: { single.append($0) })
            .disposed(by: disposeBag)
        #expect(single == [6])

        var completed = false
        Completable.empty()
            .subscribe(onCompleted: { completed = true })
            .disposed(by: disposeBag)
        #expect(completed)
    }

    @Test func errorsAndRetry() {
        var attempts = 0
        let source = Observable<Int>.create { observer in
            attempts += 1
            if attempts < 3 {
                observer.onError(TestError.boom)
            } else {
                observer.onNext(attempts)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var values: [Int] = []
        let subscription = source.retry(3).catchAndReturn(-1).subscribe(onNext: { values.append($0) })
        #expect(values == [3])
        subscription.dispose()

        var recovered: [Int] = []
        let failing = Observable<Int>.error(TestError.boom).catch { _ in .just(42) }
        failing.subscribe(onNext: { recovered.append($0) }).dispose()
        #expect(recovered == [42])
    }

    @Test func theAppsRxSwift3Spellings() {
        let items = Variable<[Int]>([])
        let shared = items.asObservable().filter { !$0.isEmpty }.shareReplay(1)
        var first: [[Int]] = []
        var late: [[Int]] = []
        let s1 = shared.subscribe(onNext: { first.append($0) })
        items.value = [1]
        let s2 = shared.subscribe(onNext: { late.append($0) })
        #expect(first == [[1]])
        #expect(late == [[1]])
        let optionals = Observable<Int?>.of(1, nil, 3)
        var unwrapped: [Int] = []
        optionals.filterNil().subscribe(onNext: { unwrapped.append($0) }).dispose()
        #expect(unwrapped == [1, 3])
        s1.dispose()
        s2.dispose()
    }

    @Test func schedulersByTheirRxSwiftNames() {
        let background = SerialDispatchQueueScheduler(qos: .userInitiated)
        let done = DispatchSemaphore(value: 0)
        var received: [Int] = []
        let subscription = Observable.of(1, 2, 3)
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .background))
            .observe(on: background)
            .subscribe(onNext: { received.append($0) }, onCompleted: { done.signal() })
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(received == [1, 2, 3])
        subscription.dispose()
    }
}
