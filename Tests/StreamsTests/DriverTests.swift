import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DriverTests {
    @Test func onErrorJustReturnReplacesTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .error(230, testError)])
            let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1).asObservable() }
            #expect(res.events == [.next(211, 1), .next(231, -1), .completed(231)])
            #expect(xs.subscriptions == [Subscription(200, 230)])
        }
    }

    @Test func onErrorDriveWithAndRecover() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .error(230, testError)])
            let res = scheduler.start { xs.asDriver(onErrorDriveWith: Driver.of(7, 8)).asObservable() }
            #expect(res.events == [.next(211, 1), .next(232, 7), .next(233, 8), .completed(234)])

            var recovered: [Error] = []
            let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                Observable<Int>.error(testError).asDriver(onErrorRecover: { error in
                    recovered.append(error)
                    return .just(5)
                }).asObservable()
            }
            #expect(res2.events == [.next(1202, 5), .completed(1202)])
            #expect(recovered.map { $0 as? TestError } == [.boom])
        }
    }

    @Test func driverReplaysTheLatestElementWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3), .completed(300)])
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.drive(first)) }
            scheduler.scheduleAt(230) { subscriptions.append(driver.drive(second)) }
            scheduler.start()
            #expect(first.events == [.next(211, 1), .next(221, 2), .next(241, 3), .completed(301)])
            #expect(second.events == [.next(230, 2), .next(241, 3), .completed(301)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            subscriptions.forEach { $0.dispose() }
        }
    }

    @Test func signalDoesNotReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
            let signal = xs.asSignal(onErrorJustReturn: 0)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(signal.emit(to: first)) }
            scheduler.scheduleAt(230) { subscriptions.append(signal.emit(to: second)) }
            scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            #expect(first.events == [.next(211, 1), .next(221, 2), .next(241, 3)])
            #expect(second.events == [.next(241, 3)])
            #expect(xs.subscriptions == [Subscription(200, 400)])
        }
    }

    @Test func signalRecoversFromErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
            let res = scheduler.start { xs.asSignal(onErrorSignalWith: .just(9)).asObservable() }
            #expect(res.events == [.next(211, 1), .next(222, 9), .completed(222)])
            let res2 = scheduler.start(created: 1100, subscribed: 1200, disposed: 2000) {
                Observable<Int>.error(testError).asSignal(onErrorRecover: { _ in .empty() }).asObservable()
            }
            #expect(res2.events == [.completed(1202)])
        }
    }

    @Test func factoriesDeliverOnTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            #expect(scheduler.start { Driver.just(1).asObservable() }.events == [.next(201, 1), .completed(201)])
        }
        let scheduler2 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler2) {
            #expect(scheduler2.start { Driver<Int>.empty().asObservable() }.events == [.completed(201)])
        }
        let scheduler3 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler3) {
            let events = scheduler3.start { Driver.of(1, 2, 3).asObservable() }.events
            #expect(events.compactMap { $0.value.element } == [1, 2, 3])
            #expect(events.allSatisfy { $0.time > 200 })
            #expect(events.last?.value.isCompleted == true)
        }
        let scheduler4 = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler4) {
            #expect(scheduler4.start { Signal.from([4, 5]).asObservable() }.events.compactMap { $0.value.element } == [4, 5])
            #expect(scheduler4.start(created: 1100, subscribed: 1200, disposed: 1300) { Driver<Int>.never().asObservable() }.events == [])
        }
    }

    @Test func mockRestoresTheMainScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            #expect(SharingScheduler.make() as? TestScheduler === scheduler)
        }
        #expect(SharingScheduler.make() as? MainScheduler === MainScheduler.instance)
    }

    @Test func operatorsKeepTheDriverShape() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 1), .next(230, 2), .next(240, 3), .next(250, 4), .completed(300)])
            let res = scheduler.start {
                xs.asDriver(onErrorJustReturn: 0)
                    .distinctUntilChanged()
                    .filter { $0 != 3 }
                    .map { $0 * 10 }
                    .startWith(0)
                    .asObservable()
            }
            #expect(res.events == [.next(200, 0), .next(211, 10), .next(231, 20), .next(251, 40), .completed(301)])
        }
    }

    @Test func driveIntoRelaysAndVariables() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let behavior = BehaviorRelay(value: 0)
            let optional = BehaviorRelay<Int?>(value: nil)
            let publish = PublishRelay<Int>()
            let variable = Variable(0)
            var published: [Int] = []
            let bag = DisposeBag()
            publish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
            let driver = Driver.of(1, 2)
            driver.drive(behavior).disposed(by: bag)
            driver.drive(optional).disposed(by: bag)
            driver.drive(publish).disposed(by: bag)
            driver.drive(variable).disposed(by: bag)
            scheduler.start()
            #expect(behavior.value == 2)
            #expect(optional.value == 2)
            #expect(published == [1, 2])
            #expect(variable.value == 2)
        }
    }

    @Test func driveClosuresAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            var log: [String] = []
            _ = Driver.of(1, 2).drive(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
            final class Owner { var count = 0 }
            let owner = Owner()
            _ = Driver.just(1).drive(with: owner, onNext: { owner, _ in owner.count += 1 })
            scheduler.start()
            #expect(log == ["next 1", "next 2", "completed", "disposed"])
            #expect(owner.count == 1)
        }
    }

    @Test func relaysAsDriverAndSignal() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = BehaviorRelay(value: 1)
            let publish = PublishRelay<String>()
            let driverObserver = scheduler.createObserver(Int.self)
            let signalObserver = scheduler.createObserver(String.self)
            let bag = DisposeBag()
            relay.asDriver().drive(driverObserver).disposed(by: bag)
            publish.asSignal().emit(to: signalObserver).disposed(by: bag)
            scheduler.scheduleAt(10) {
                relay.accept(2)
                publish.accept("a")
            }
            scheduler.start()
            #expect(driverObserver.events == [.next(1, 1), .next(11, 2)])
            #expect(signalObserver.events == [.next(11, "a")])
        }
    }

    @Test func driverDeliversOnTheMainSchedulerByDefault() {
        let subject = PublishSubject<Int>()
        let driver = subject.asDriver(onErrorJustReturn: 0)
        let lock = NSLock()
        var received: [(Int, Bool)] = []
        let subscription = driver.drive(onNext: { value in
            lock.lock()
            received.append((value, MainScheduler.isOnMainScheduler))
            lock.unlock()
        })
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            subject.onNext(1)
            subject.onNext(2)
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let arrived = MainScheduler.run(until: { lock.withLock { received.count == 2 } }, timeout: 10)
        #expect(arrived)
        lock.withLock {
            #expect(received.map(\.0) == [1, 2])
            #expect(received.allSatisfy { $0.1 })
        }
        subscription.dispose()
    }

    @Test func driverAsSignalAndMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let res = scheduler.start { Driver.merge(Driver.just(1), Driver.just(2)).asSignal().asObservable() }
            #expect(res.events.compactMap { $0.value.element }.sorted() == [1, 2])
            #expect(res.events.last?.value.isCompleted == true)
        }
    }

    @Test func disposingTheLastObserverOfATemporaryDriverUnsubscribesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let subject = PublishSubject<Int>()
            let subscription = subject.asDriver(onErrorJustReturn: 0).drive(onNext: { _ in })
            #expect(subject.hasObservers)
            subscription.dispose()
            #expect(!subject.hasObservers)
        }
    }
}
